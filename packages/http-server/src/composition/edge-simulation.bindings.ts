import {
  ClickHouseClientSource,
  ClickHouseEdgeLogWriter,
  type PostgresDatabase,
  PostgresProfileRepository,
  postgresProfileOrganisation,
} from '@svc/adapters';
import { PostgresToken } from '@svc/composition';
import {
  Clock,
  DeviceSightings,
  EdgeLogWriter,
  KeyedHash,
  NodeLogHoldService,
  NodeLogHoldStore,
} from '@svc/domain';
import { ClickHouseSimulatedLogWriter, EdgeSimulator } from '@svc/edge-simulator';
import type { Container } from 'inversify';
import { traced } from '../observability/tracing.js';

/** The edge simulator of `svc simulate` (bound with the engine-backed stores only). */
export const EdgeSimulatorToken = Symbol.for('svc.EdgeSimulator');

/**
 * Binds the edge writer on the columnar store and the simulator that plays the edge (RUNNER.md
 * `svc simulate`). Nothing is bound without ClickHouse and PostgreSQL (the memory family): the command needs
 * the engines.
 */
export function bindEdgeSimulation(container: Container): void {
  if (!container.isBound(ClickHouseClientSource) || !container.isBound(PostgresToken)) return;
  container
    .bind<EdgeLogWriter>(EdgeLogWriter)
    .toResolvedValue(
      (source: ClickHouseClientSource) => new ClickHouseEdgeLogWriter(() => source.store(), traced),
      [ClickHouseClientSource],
    );
  container.bind<EdgeSimulator>(EdgeSimulatorToken).toResolvedValue(
    (
      database: PostgresDatabase,
      source: ClickHouseClientSource,
      sightings: DeviceSightings,
      clock: Clock,
      hash: KeyedHash,
      hold: NodeLogHoldStore,
    ) => {
      const profiles = new PostgresProfileRepository(database.pool);
      return new EdgeSimulator({
        findProfile: async (id) => {
          const orgId = await postgresProfileOrganisation(database.pool, id);
          return orgId === null ? null : profiles.find(orgId, id);
        },
        writer: new ClickHouseSimulatedLogWriter(new ClickHouseEdgeLogWriter(() => source.store(), traced)),
        sightings,
        clock,
        sha256: (data) => hash.sha256(data),
        hold: new NodeLogHoldService({ store: hold, clock }),
      });
    },
    [PostgresToken, ClickHouseClientSource, DeviceSightings, Clock, KeyedHash, NodeLogHoldStore],
  );
}
