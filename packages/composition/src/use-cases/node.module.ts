import type { KeyObject } from 'node:crypto';
import { Ed25519ProfileSigner, parseProfileSigningKeys } from '@svc/adapters';
import {
  Clock,
  type CursorSealer,
  DeviceStore,
  KeyedHash,
  ListArtifactStore,
  type ListPipelineService,
  NodePresence,
  NodeService,
  NodeStore,
  ProfileSigner,
  ProfileStore,
  Random,
  UnitOfWork,
} from '@svc/domain';
import { ContainerModule } from 'inversify';
import { DevelopmentSigningKey } from '../development-signing-key.js';
import type { Settings } from '../settings/settings.js';
import { CursorSealerToken, ListPipelineServiceToken, NodeServiceToken } from './use-case.tokens.js';

/**
 * The profile signing keys: SVC_PROFILE_SIGNING_KEYS when set; in development the key the adapter family keeps
 * (in the data dir, or in memory for the memory family); in production without the setting, none (profile
 * documents go unsigned).
 */
async function signingKeysOf(
  settings: Pick<Settings, 'env' | 'keys'>,
  development: DevelopmentSigningKey,
): Promise<KeyObject[]> {
  const configured = settings.keys.profileSigningKeys;
  if (configured !== undefined) return parseProfileSigningKeys(configured);
  if (settings.env !== 'development') return [];
  return [await development.key()];
}

/**
 * Binds the node use cases and the profile signer; NodeStore is bound by the storage family, the nodes' presence
 * by the host (the HTTP server's links, or none connected in a process without them).
 */
export function nodesModule(settings: Pick<Settings, 'env' | 'keys' | 'http' | 'limits'>): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<ProfileSigner>(ProfileSigner).toResolvedValue(
      async (development: DevelopmentSigningKey) =>
        new Ed25519ProfileSigner(await signingKeysOf(settings, development)),
      [DevelopmentSigningKey],
    );
    bind<NodeService>(NodeServiceToken).toResolvedValue(
      (
        uow: UnitOfWork,
        profileStore: ProfileStore,
        store: NodeStore,
        random: Random,
        clock: Clock,
        cursors: CursorSealer,
        keyedHash: KeyedHash,
        signer: ProfileSigner,
        presence: NodePresence,
        pipeline: ListPipelineService,
        artifacts: ListArtifactStore,
        devicePolicies: DeviceStore,
      ) =>
        new NodeService({
          uow,
          profileStore,
          devicePolicies,
          store,
          random,
          clock,
          cursors,
          keyedHash,
          signer,
          presence,
          baseUrl: settings.http.baseUrl,
          ecsOperatorCap: settings.limits.ecsOperatorCap,
          lists: { versionsFor: (selection) => pipeline.versionsFor(selection), artifacts },
        }),
      [
        UnitOfWork,
        ProfileStore,
        NodeStore,
        Random,
        Clock,
        CursorSealerToken,
        KeyedHash,
        ProfileSigner,
        NodePresence,
        ListPipelineServiceToken,
        ListArtifactStore,
        DeviceStore,
      ],
    );
  });
}
