import {
  ClickHouseColumnarStore,
  ClickHouseEdgeLogWriter,
  LazyColumnarStore,
  PostgresProfileRepository,
  postgresProfileOrganisation,
} from '@svc/adapters';
import {
  Clock,
  ColumnarStore,
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

type PostgresDatabase = { pool: ConstructorParameters<typeof PostgresProfileRepository>[0] };

/**
 * The open ClickHouse store behind the bound columnar store, for adapters that need its client: the lazy
 * store opens (and migrates) on first use.
 */
export function openedColumnarStore(store: ColumnarStore): () => Promise<ClickHouseColumnarStore> {
  if (store instanceof LazyColumnarStore) return () => store.store();
  if (store instanceof ClickHouseColumnarStore) return async () => store;
  throw new Error('the columnar store is not a ClickHouse store');
}

/**
 * Binds the edge writer on the columnar store and the simulator that plays the edge (RUNNER.md
 * `svc simulate`). Nothing is bound without a columnar store (the memory family): the command needs the
 * engines. `postgres` is the token of the Postgres pool (passed in: container.ts imports this module).
 */
export function bindEdgeSimulation(container: Container, postgres: symbol): void {
  if (!container.isBound(ColumnarStore) || !container.isBound(postgres)) return;
  container
    .bind<EdgeLogWriter>(EdgeLogWriter)
    .toResolvedValue(
      (store: ColumnarStore) => new ClickHouseEdgeLogWriter(openedColumnarStore(store), traced),
      [ColumnarStore],
    );
  container.bind<EdgeSimulator>(EdgeSimulatorToken).toResolvedValue(
    (
      database: PostgresDatabase,
      store: ColumnarStore,
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
        writer: new ClickHouseSimulatedLogWriter(
          new ClickHouseEdgeLogWriter(openedColumnarStore(store), traced),
        ),
        sightings,
        clock,
        sha256: (data) => hash.sha256(data),
        hold: new NodeLogHoldService({ store: hold, clock }),
      });
    },
    [postgres, ColumnarStore, DeviceSightings, Clock, KeyedHash, NodeLogHoldStore],
  );
}
