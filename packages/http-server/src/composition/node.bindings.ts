import type { KeyObject } from 'node:crypto';
import {
  Ed25519ProfileSigner,
  generateProfileSigningKey,
  loadOrCreateDevelopmentSigningKey,
  parseProfileSigningKeys,
} from '@svc/adapters';
import type { Lifecycle, StorageKind } from '@svc/composition';
import {
  Clock,
  type CursorSealer,
  DeviceStore,
  EdgeLogWriter,
  KeyedHash,
  ListArtifactStore,
  type ListPipelineService,
  LogQueryRelay,
  MessageBus,
  NODE_OPERATOR_FILES,
  NodeHourlyTotalsService,
  NodeLogBatchLedger,
  NodeLogBatchService,
  NodeLogHoldStore,
  NodePresence,
  NodeService,
  NodeStore,
  NodeTotalsLedger,
  ProfileSigner,
  ProfileStore,
  Random,
  UnitOfWork,
} from '@svc/domain';
import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { NodeLinkLogQueryRelay } from '../links/node-link.log-query-relay.js';
import { NodeLinkHub } from '../links/node-link-hub.js';
import type { Settings } from '../settings/settings.js';
import { NodeAlertScheduler } from './node-alert.scheduler.js';
import { NodeLogHoldScheduler } from './node-log-hold.scheduler.js';
import {
  CursorSealerToken,
  LifecycleToken,
  ListPipelineServiceToken,
  LoggerToken,
  NodeAlertSchedulerToken,
  NodeLinkHubToken,
  NodeLogHoldSchedulerToken,
  NodeServiceToken,
} from './tokens.js';

/**
 * The profile signing keys: SVC_PROFILE_SIGNING_KEYS when set; in development a key kept in the data dir (in
 * memory for the engine-free server, which has no data dir); in production without the setting, none (profile
 * documents go unsigned).
 */
async function signingKeysOf(settings: Settings, storage: StorageKind): Promise<KeyObject[]> {
  if (settings.profileSigningKeys !== undefined) return parseProfileSigningKeys(settings.profileSigningKeys);
  if (settings.env !== 'development') return [];
  if (storage === 'memory') return [generateProfileSigningKey()];
  return [await loadOrCreateDevelopmentSigningKey(settings.dataDir)];
}

/** Binds the node use cases, the profile signer and the link hub; NodeStore is bound by the storage family. */
export function bindNodes(container: Container, settings: Settings, storage: StorageKind): void {
  container
    .bind<ProfileSigner>(ProfileSigner)
    .toResolvedValue(async () => new Ed25519ProfileSigner(await signingKeysOf(settings, storage)));
  container.bind<NodeLinkHub>(NodeLinkHubToken).toResolvedValue(
    async (
      store: NodeStore,
      profileStore: ProfileStore,
      clock: Clock,
      bus: MessageBus,
      logger: Logger,
      lifecycle: Lifecycle,
    ) => {
      // Engine-backed servers keep node log batches (with a columnar store) and the offline hold.
      const ledger = container.isBound(NodeLogBatchLedger)
        ? await container.getAsync<NodeLogBatchLedger>(NodeLogBatchLedger)
        : undefined;
      const writer = container.isBound(EdgeLogWriter)
        ? await container.getAsync<EdgeLogWriter>(EdgeLogWriter)
        : undefined;
      const totalsLedger = container.isBound(NodeTotalsLedger)
        ? await container.getAsync<NodeTotalsLedger>(NodeTotalsLedger)
        : undefined;
      const hub = new NodeLinkHub({
        store,
        profileStore,
        clock,
        bus,
        logger,
        problemBase: settings.problemBase,
        crossServer: storage === 'engines' && settings.natsUrl !== undefined,
        budget: settings.nodeLinkBudget,
        logBatches: new NodeLogBatchService({
          storage: ledger === undefined || writer === undefined ? undefined : { ledger, writer },
          findProfile: (orgId, profileId) => profileStore.find(orgId, profileId),
          clock,
        }),
        hourlyTotals: new NodeHourlyTotalsService({
          storage:
            totalsLedger === undefined || writer === undefined ? undefined : { ledger: totalsLedger, writer },
          clock,
        }),
        ...(container.isBound(NodeLogHoldStore)
          ? { hold: await container.getAsync<NodeLogHoldStore>(NodeLogHoldStore) }
          : {}),
        // Resolved on use: the node use cases depend on the hub (their presence port).
        listsDigest: async (profile) =>
          (await container.getAsync<NodeService>(NodeServiceToken)).listsDigest(profile),
        operatorFiles: async () => {
          const uow = await container.getAsync<UnitOfWork>(UnitOfWork);
          return uow.run(async (tx) =>
            Promise.all(
              NODE_OPERATOR_FILES.map(async (file) => ({ file, ...(await tx.operator.readFile(file)) })),
            ),
          );
        },
        signer: await container.getAsync<ProfileSigner>(ProfileSigner),
      });
      await hub.start();
      return lifecycle.own('node links', hub, (owned) => owned.close());
    },
    [NodeStore, ProfileStore, Clock, MessageBus, LoggerToken, LifecycleToken],
  );
  container.bind<NodeAlertScheduler>(NodeAlertSchedulerToken).toResolvedValue(
    (
      uow: UnitOfWork,
      store: NodeStore,
      clock: Clock,
      logger: Logger,
      hub: NodeLinkHub,
      lifecycle: Lifecycle,
    ) => {
      const scheduler = new NodeAlertScheduler({
        uow,
        store,
        clock,
        logger,
        connectedNodeIds: () => hub.connectedNodeIds(),
        delaySeconds: settings.nodeAlertDelaySeconds,
      });
      scheduler.start();
      return lifecycle.own('node alert scheduler', scheduler, (owned) => owned.stop());
    },
    [UnitOfWork, NodeStore, Clock, LoggerToken, NodeLinkHubToken, LifecycleToken],
  );
  container.bind<NodeLogHoldScheduler>(NodeLogHoldSchedulerToken).toResolvedValue(
    async (clock: Clock, logger: Logger, hub: NodeLinkHub, lifecycle: Lifecycle) => {
      const scheduler = new NodeLogHoldScheduler({
        store: await container.getAsync<NodeLogHoldStore>(NodeLogHoldStore),
        ledger: container.isBound(NodeLogBatchLedger)
          ? await container.getAsync<NodeLogBatchLedger>(NodeLogBatchLedger)
          : undefined,
        totals: container.isBound(NodeTotalsLedger)
          ? await container.getAsync<NodeTotalsLedger>(NodeTotalsLedger)
          : undefined,
        clock,
        logger,
        linksByProfile: () => hub.readyLinksByProfile(),
        offer: (link) => hub.offerHeld(link),
      });
      scheduler.start();
      return lifecycle.own('node log hold scheduler', scheduler, (owned) => owned.stop());
    },
    [Clock, LoggerToken, NodeLinkHubToken, LifecycleToken],
  );
  // Bound before the query-log bindings, which fall back to an always-offline relay.
  container
    .bind<LogQueryRelay>(LogQueryRelay)
    .toResolvedValue(
      (hub: NodeLinkHub, devices: DeviceStore) => new NodeLinkLogQueryRelay(hub, devices),
      [NodeLinkHubToken, DeviceStore],
    );
  container.bind<NodePresence>(NodePresence).toResolvedValue((hub: NodeLinkHub) => hub, [NodeLinkHubToken]);
  container.bind<NodeService>(NodeServiceToken).toResolvedValue(
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
    ) =>
      new NodeService({
        uow,
        profileStore,
        store,
        random,
        clock,
        cursors,
        keyedHash,
        signer,
        presence,
        baseUrl: settings.baseUrl,
        ecsOperatorCap: settings.ecsOperatorCap,
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
    ],
  );
}
