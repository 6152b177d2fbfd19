import {
  InProcessMessageBus,
  MemoryIdempotencyStore,
  MemoryListArtifactStore,
  MemoryListPipelineStore,
  MemoryMailDispatcher,
  MemoryMailer,
  MemoryNodeLogBatchLedger,
  MemoryNodeLogHoldStore,
  MemoryNodeTotalsLedger,
  MemoryOutboxRelay,
  MemoryStores,
  MemoryUnitOfWork,
  ProfileOwnerLookup,
} from '@svc/adapters';
import {
  AuditLogStore,
  DeviceCounts,
  DeviceStore,
  IdempotencyStore,
  IdentityStore,
  LinkedIpStore,
  ListArtifactStore,
  ListPipelineStore,
  ListReportStore,
  MailDispatcher,
  Mailer,
  MessageBus,
  NodeLogBatchLedger,
  NodeLogHoldStore,
  NodeStore,
  NodeTotalsLedger,
  NoopQueryLogEraser,
  OutboxRelay,
  ProfileCommitter,
  ProfileStore,
  QueryLogEraser,
  UnavailableDeviceCounts,
  UnitOfWork,
  UnitOfWorkProfileCommitter,
} from '@svc/domain';
import { ContainerModule } from 'inversify';
import { DevelopmentSigningKey, inMemorySigningKey } from './development-signing-key.js';
import type { Lifecycle } from './lifecycle.js';
import { BusTransport, ColumnarQueryLog } from './tokens.js';

/**
 * The memory family: every store in one process's memory, the in-process bus and a mailer that keeps what it
 * sends. Nothing outlives the process; tests and `storage: 'memory'` servers use it. It configures no columnar
 * store: the query-log ports are bound to what a server without one answers (spec 4.6: cloud logs 501
 * not_implemented, device counts null, nodes' rows and totals not kept).
 */
export function memoryModule(lifecycle: Lifecycle): ContainerModule {
  return new ContainerModule(({ bind }) => {
    const stores = new MemoryStores();
    const mailer = new MemoryMailer();
    bind<MessageBus>(MessageBus).toConstantValue(new InProcessMessageBus());
    bind<BusTransport>(BusTransport).toConstantValue('in_process');
    bind<DevelopmentSigningKey>(DevelopmentSigningKey).toConstantValue(inMemorySigningKey());
    bind<Mailer>(Mailer).toConstantValue(mailer);
    bind<IdempotencyStore>(IdempotencyStore).toConstantValue(new MemoryIdempotencyStore());
    bind<IdentityStore>(IdentityStore).toConstantValue(stores.identity.repositories());
    bind<ProfileStore>(ProfileStore).toConstantValue(stores.profiles.repository());
    bind<LinkedIpStore>(LinkedIpStore).toConstantValue(stores.linkedIps.repository());
    bind<NodeStore>(NodeStore).toConstantValue(stores.nodes.repository());
    bind<NodeLogHoldStore>(NodeLogHoldStore).toConstantValue(
      new MemoryNodeLogHoldStore(stores.nodes.links()),
    );
    bind<NodeLogBatchLedger>(NodeLogBatchLedger).toConstantValue(new MemoryNodeLogBatchLedger());
    bind<NodeTotalsLedger>(NodeTotalsLedger).toConstantValue(new MemoryNodeTotalsLedger());
    bind<ProfileOwnerLookup>(ProfileOwnerLookup).toConstantValue({
      organisationOf: async (profileId) => stores.profiles.orgOfLive(profileId),
    });
    // No columnar store: no cloud query log, no device counts (null), and no query logs to erase.
    bind<ColumnarQueryLog>(ColumnarQueryLog).toConstantValue(null);
    bind<DeviceCounts>(DeviceCounts).toConstantValue(new UnavailableDeviceCounts());
    bind<QueryLogEraser>(QueryLogEraser).toConstantValue(new NoopQueryLogEraser());
    bind<DeviceStore>(DeviceStore).toConstantValue(stores.devices.repository());
    bind<ListReportStore>(ListReportStore).toConstantValue(stores.listReports.repository());
    bind<AuditLogStore>(AuditLogStore).toConstantValue(stores.auditLog);
    bind<ListArtifactStore>(ListArtifactStore).toConstantValue(new MemoryListArtifactStore());
    bind<ListPipelineStore>(ListPipelineStore).toConstantValue(new MemoryListPipelineStore());
    bind<MailDispatcher>(MailDispatcher).toResolvedValue(() => {
      const dispatcher = new MemoryMailDispatcher(stores.mailQueue, mailer);
      dispatcher.start();
      return lifecycle.own('mail dispatcher', dispatcher, (owned) => owned.stop());
    });
    bind<MemoryOutboxRelay>(OutboxRelay).toResolvedValue(
      (bus: MessageBus) => {
        const relay = new MemoryOutboxRelay(bus);
        relay.start();
        return lifecycle.own('outbox relay', relay, (owned) => owned.stop());
      },
      [MessageBus],
    );
    bind<UnitOfWork>(UnitOfWork).toResolvedValue(
      (relay: MemoryOutboxRelay, dispatcher: MailDispatcher) =>
        new MemoryUnitOfWork(relay, {
          repositories: (counters) => stores.transactionRepositories(counters),
          participants: stores.participants,
          onMailCommitted: () => dispatcher.nudge(),
        }),
      [OutboxRelay, MailDispatcher],
    );
    bind<ProfileCommitter>(ProfileCommitter).toResolvedValue(
      (uow: UnitOfWork) => new UnitOfWorkProfileCommitter(uow),
      [UnitOfWork],
    );
  });
}
