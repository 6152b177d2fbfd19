import { ProfileOwnerLookup } from '@svc/adapters';
import {
  Clock,
  DeviceSightings,
  KeyedHash,
  NodeLogHoldService,
  NodeLogHoldStore,
  ProfileStore,
} from '@svc/domain';
import { EdgeSimulator } from '@svc/edge-simulator';
import { ContainerModule } from 'inversify';
import { ColumnarQueryLog } from '../tokens.js';
import { EdgeSimulatorToken } from './use-case.tokens.js';

/**
 * Binds the simulator that plays the edge (RUNNER.md `svc simulate`), writing into the cloud query log the
 * adapter family bound and finding profiles by id alone (ProfileOwnerLookup); null where the family configures
 * no columnar store (the memory family): the command says it needs one.
 */
export function edgeSimulationModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<EdgeSimulator | null>(EdgeSimulatorToken).toResolvedValue(
      (
        log: ColumnarQueryLog,
        owners: ProfileOwnerLookup,
        profiles: ProfileStore,
        sightings: DeviceSightings,
        clock: Clock,
        hash: KeyedHash,
        hold: NodeLogHoldStore,
      ) =>
        log === null
          ? null
          : new EdgeSimulator({
              findProfile: async (id) => {
                const orgId = await owners.organisationOf(id);
                return orgId === null ? null : profiles.find(orgId, id);
              },
              writer: log.simulated,
              sightings,
              clock,
              sha256: (data) => hash.sha256(data),
              hold: new NodeLogHoldService({ store: hold, clock }),
            }),
      [
        ColumnarQueryLog,
        ProfileOwnerLookup,
        ProfileStore,
        DeviceSightings,
        Clock,
        KeyedHash,
        NodeLogHoldStore,
      ],
    );
  });
}
