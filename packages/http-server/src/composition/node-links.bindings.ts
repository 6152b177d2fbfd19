import { CrossServerBus, type Lifecycle, type Settings } from '@svc/composition';
import {
  Clock,
  DeviceStore,
  EdgeLogWriter,
  KeyedHash,
  LogQueryRelay,
  MessageBus,
  NODE_OPERATOR_FILES,
  NodeHourlyTotalsService,
  NodeLogBatchLedger,
  NodeLogBatchService,
  NodeLogHoldStore,
  NodePresence,
  type NodeService,
  NodeStore,
  NodeTotalsLedger,
  ProfileSigner,
  ProfileStore,
  UnitOfWork,
} from '@svc/domain';
import { type Container, ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import { NodeLinkLogQueryRelay } from '../links/node-link.log-query-relay.js';
import { NodeLinkHub } from '../links/node-link-hub.js';
import { NodeAlertScheduler } from './node-alert.scheduler.js';
import { NodeLogHoldScheduler } from './node-log-hold.scheduler.js';
import { ServerJob } from './server-job.js';
import {
  LifecycleToken,
  LoggerToken,
  NodeAlertSchedulerToken,
  NodeLinkHubToken,
  NodeLogHoldSchedulerToken,
  NodeServiceToken,
} from './tokens.js';

/**
 * The nodes' links of this API server (ROUTES.md "Node link"): the hub, the schedulers that need it, and what the
 * node use cases see of it (presence, the log query relay). Loaded before the use cases, which otherwise fall
 * back on no node connected and nodes offline; `container` resolves what the hub needs on first use.
 */
export function nodeLinksModule(
  container: Container,
  settings: Pick<Settings, 'http' | 'nodes'>,
): ContainerModule {
  return new ContainerModule(({ bind, isBound }) => {
    bind<NodeLinkHub>(NodeLinkHubToken).toResolvedValue(
      async (
        store: NodeStore,
        profileStore: ProfileStore,
        clock: Clock,
        bus: MessageBus,
        logger: Logger,
        lifecycle: Lifecycle,
        keyedHash: KeyedHash,
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
          problemBase: settings.http.problemBase,
          crossServer: container.isBound(CrossServerBus),
          keyedHash,
          budget: settings.nodes.linkBudget,
          logBatches: new NodeLogBatchService({
            storage: ledger === undefined || writer === undefined ? undefined : { ledger, writer },
            findProfile: (orgId, profileId) => profileStore.find(orgId, profileId),
            clock,
          }),
          hourlyTotals: new NodeHourlyTotalsService({
            storage:
              totalsLedger === undefined || writer === undefined
                ? undefined
                : { ledger: totalsLedger, writer },
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
      [NodeStore, ProfileStore, Clock, MessageBus, LoggerToken, LifecycleToken, KeyedHash],
    );
    bind<NodeAlertScheduler>(NodeAlertSchedulerToken).toResolvedValue(
      (uow: UnitOfWork, store: NodeStore, clock: Clock, logger: Logger, hub: NodeLinkHub) =>
        new NodeAlertScheduler({
          uow,
          store,
          clock,
          logger,
          connectedNodeIds: () => hub.connectedNodeIds(),
          delaySeconds: settings.nodes.alertDelaySeconds,
        }),
      [UnitOfWork, NodeStore, Clock, LoggerToken, NodeLinkHubToken],
    );
    bind<ServerJob>(ServerJob).toService(NodeAlertSchedulerToken);
    bind<NodeLogHoldScheduler>(NodeLogHoldSchedulerToken).toResolvedValue(
      async (clock: Clock, logger: Logger, hub: NodeLinkHub) =>
        new NodeLogHoldScheduler({
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
        }),
      [Clock, LoggerToken, NodeLinkHubToken],
    );
    // Only engine-backed families keep an offline hold.
    if (isBound(NodeLogHoldStore)) bind<ServerJob>(ServerJob).toService(NodeLogHoldSchedulerToken);
    // Loaded before the use cases: the query-log module falls back to an always-offline relay.
    bind<LogQueryRelay>(LogQueryRelay).toResolvedValue(
      (hub: NodeLinkHub, devices: DeviceStore) => new NodeLinkLogQueryRelay(hub, devices),
      [NodeLinkHubToken, DeviceStore],
    );
    bind<NodePresence>(NodePresence).toResolvedValue((hub: NodeLinkHub) => hub, [NodeLinkHubToken]);
  });
}
