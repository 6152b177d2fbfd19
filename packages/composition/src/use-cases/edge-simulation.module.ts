import {
  ClickHouseClientSource,
  ClickHouseEdgeLogWriter,
  ProfileOwnerLookup,
  type StorageCallTracer,
} from '@svc/adapters';
import {
  Clock,
  DeviceSightings,
  EdgeLogWriter,
  KeyedHash,
  NodeLogHoldService,
  NodeLogHoldStore,
  ProfileStore,
} from '@svc/domain';
import { ClickHouseSimulatedLogWriter, EdgeSimulator } from '@svc/edge-simulator';
import { ContainerModule } from 'inversify';
import { EdgeSimulatorToken } from './use-case.tokens.js';

/**
 * Binds the edge writer on the columnar store and the simulator that plays the edge (RUNNER.md `svc simulate`).
 * The writer needs a columnar store (ClickHouseClientSource); the simulator also finds profiles by id alone
 * (ProfileOwnerLookup). Without them nothing is bound (the memory family): the command says it needs them.
 */
export function edgeSimulationModule(tracer: StorageCallTracer): ContainerModule {
  return new ContainerModule(({ bind, isBound }) => {
    if (!isBound(ClickHouseClientSource)) return;
    bind<EdgeLogWriter>(EdgeLogWriter).toResolvedValue(
      (source: ClickHouseClientSource) => new ClickHouseEdgeLogWriter(() => source.store(), tracer),
      [ClickHouseClientSource],
    );
    if (!isBound(ProfileOwnerLookup)) return;
    bind<EdgeSimulator>(EdgeSimulatorToken).toResolvedValue(
      (
        owners: ProfileOwnerLookup,
        profiles: ProfileStore,
        source: ClickHouseClientSource,
        sightings: DeviceSightings,
        clock: Clock,
        hash: KeyedHash,
        hold: NodeLogHoldStore,
      ) =>
        new EdgeSimulator({
          findProfile: async (id) => {
            const orgId = await owners.organisationOf(id);
            return orgId === null ? null : profiles.find(orgId, id);
          },
          writer: new ClickHouseSimulatedLogWriter(new ClickHouseEdgeLogWriter(() => source.store(), tracer)),
          sightings,
          clock,
          sha256: (data) => hash.sha256(data),
          hold: new NodeLogHoldService({ store: hold, clock }),
        }),
      [
        ProfileOwnerLookup,
        ProfileStore,
        ClickHouseClientSource,
        DeviceSightings,
        Clock,
        KeyedHash,
        NodeLogHoldStore,
      ],
    );
  });
}
