import { BusTransport, ColumnarQueryLog, type Lifecycle, type Settings } from '@svc/composition';
import {
  Clock,
  DeviceStore,
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
  Random,
  UnitOfWork,
} from '@svc/domain';
import { ContainerModule, type ContainerModuleLoadOptions } from 'inversify';
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

/** Resolves the node use cases when the hub first asks: they depend on the hub (their presence port). */
const NodeServiceProviderToken = Symbol.for('svc.NodeServiceProvider');
type NodeServiceProvider = () => Promise<NodeService>;

/** What the hub and the hold's scheduler are built from, resolved once for both. */
const NodeLinkHubPartsToken = Symbol.for('svc.NodeLinkHubParts');
interface NodeLinkHubParts {
  store: NodeStore;
  profileStore: ProfileStore;
  clock: Clock;
  bus: MessageBus;
  transport: BusTransport;
  logger: Logger;
  lifecycle: Lifecycle;
  keyedHash: KeyedHash;
  uow: UnitOfWork;
  signer: ProfileSigner;
  hold: NodeLogHoldStore;
  batchLedger: NodeLogBatchLedger;
  totalsLedger: NodeTotalsLedger;
  /** Where nodes' rows and totals are written; null where the family keeps none (they are then not kept). */
  columnar: ColumnarQueryLog;
  nodeService: NodeServiceProvider;
}

/** Resolves what the hub and the hold's scheduler are built from, once for both. */
function bindHubParts(bind: ContainerModuleLoadOptions['bind']): void {
  bind<NodeServiceProvider>(NodeServiceProviderToken).toFactory(
    (context) => () => context.getAsync<NodeService>(NodeServiceToken),
  );
  bind<NodeLinkHubParts>(NodeLinkHubPartsToken).toResolvedValue(
    (
      store: NodeStore,
      profileStore: ProfileStore,
      clock: Clock,
      bus: MessageBus,
      transport: BusTransport,
      logger: Logger,
      lifecycle: Lifecycle,
      keyedHash: KeyedHash,
      uow: UnitOfWork,
      signer: ProfileSigner,
      hold: NodeLogHoldStore,
      batchLedger: NodeLogBatchLedger,
      totalsLedger: NodeTotalsLedger,
      columnar: ColumnarQueryLog,
      nodeService: NodeServiceProvider,
    ): NodeLinkHubParts => ({
      store,
      profileStore,
      clock,
      bus,
      transport,
      logger,
      lifecycle,
      keyedHash,
      uow,
      signer,
      hold,
      batchLedger,
      totalsLedger,
      columnar,
      nodeService,
    }),
    [
      NodeStore,
      ProfileStore,
      Clock,
      MessageBus,
      BusTransport,
      LoggerToken,
      LifecycleToken,
      KeyedHash,
      UnitOfWork,
      ProfileSigner,
      NodeLogHoldStore,
      NodeLogBatchLedger,
      NodeTotalsLedger,
      ColumnarQueryLog,
      NodeServiceProviderToken,
    ],
  );
}

/** The hub of this server's links, started and owned by the lifecycle (closed before the stores). */
async function startNodeLinkHub(
  parts: NodeLinkHubParts,
  settings: Pick<Settings, 'http' | 'nodes'>,
): Promise<NodeLinkHub> {
  const { store, profileStore, clock, uow, columnar, lifecycle } = parts;
  const hub = new NodeLinkHub({
    store,
    profileStore,
    clock,
    bus: parts.bus,
    logger: parts.logger,
    problemBase: settings.http.problemBase,
    crossServer: parts.transport === 'nats',
    keyedHash: parts.keyedHash,
    budget: settings.nodes.linkBudget,
    logBatches: new NodeLogBatchService({
      storage: columnar === null ? undefined : { ledger: parts.batchLedger, writer: columnar.writer },
      findProfile: (orgId, profileId) => profileStore.find(orgId, profileId),
      clock,
    }),
    hourlyTotals: new NodeHourlyTotalsService({
      storage: columnar === null ? undefined : { ledger: parts.totalsLedger, writer: columnar.writer },
      clock,
    }),
    hold: parts.hold,
    listsDigest: async (profile) => (await parts.nodeService()).listsDigest(profile),
    operatorFiles: async () =>
      uow.run(async (tx) =>
        Promise.all(
          NODE_OPERATOR_FILES.map(async (file) => ({ file, ...(await tx.operator.readFile(file)) })),
        ),
      ),
    signer: parts.signer,
  });
  await hub.start();
  return lifecycle.own('node links', hub, (owned) => owned.close());
}

/**
 * The nodes' links of this API server (ROUTES.md "Node link"): the hub, the schedulers that need it, and what the
 * node use cases see of it (presence, the log query relay). Nodes' log batches and hourly totals go to the cloud
 * query log the adapter family bound, and are not kept where it is none (memory storage).
 */
export function nodeLinksModule(settings: Pick<Settings, 'http' | 'nodes'>): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bindHubParts(bind);
    bind<NodeLinkHub>(NodeLinkHubToken).toResolvedValue(
      (parts: NodeLinkHubParts) => startNodeLinkHub(parts, settings),
      [NodeLinkHubPartsToken],
    );
    bind<NodeAlertScheduler>(NodeAlertSchedulerToken).toResolvedValue(
      (uow: UnitOfWork, store: NodeStore, clock: Clock, random: Random, logger: Logger, hub: NodeLinkHub) =>
        new NodeAlertScheduler({
          uow,
          store,
          clock,
          random,
          logger,
          connectedNodeIds: () => hub.connectedNodeIds(),
          delaySeconds: settings.nodes.alertDelaySeconds,
        }),
      [UnitOfWork, NodeStore, Clock, Random, LoggerToken, NodeLinkHubToken],
    );
    bind<ServerJob>(ServerJob).toService(NodeAlertSchedulerToken);
    bind<NodeLogHoldScheduler>(NodeLogHoldSchedulerToken).toResolvedValue(
      (parts: NodeLinkHubParts, hub: NodeLinkHub) =>
        new NodeLogHoldScheduler({
          store: parts.hold,
          ledger: parts.batchLedger,
          totals: parts.totalsLedger,
          clock: parts.clock,
          logger: parts.logger,
          linksByProfile: () => hub.readyLinksByProfile(),
          offer: (link) => hub.offerHeld(link),
        }),
      [NodeLinkHubPartsToken, NodeLinkHubToken],
    );
    bind<ServerJob>(ServerJob).toService(NodeLogHoldSchedulerToken);
    bind<LogQueryRelay>(LogQueryRelay).toResolvedValue(
      (hub: NodeLinkHub, devices: DeviceStore) => new NodeLinkLogQueryRelay(hub, devices),
      [NodeLinkHubToken, DeviceStore],
    );
    bind<NodePresence>(NodePresence).toResolvedValue((hub: NodeLinkHub) => hub, [NodeLinkHubToken]);
  });
}
