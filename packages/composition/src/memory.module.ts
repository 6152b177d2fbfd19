import {
  InProcessMessageBus,
  MemoryIdempotencyStore,
  MemoryListArtifactStore,
  MemoryListPipelineStore,
  MemoryMailDispatcher,
  MemoryMailer,
  MemoryOutboxRelay,
  MemoryStores,
  MemoryUnitOfWork,
} from '@svc/adapters';
import {
  AuditLogStore,
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
  NodeStore,
  OutboxRelay,
  ProfileCommitter,
  ProfileStore,
  UnitOfWork,
  UnitOfWorkProfileCommitter,
} from '@svc/domain';
import { ContainerModule } from 'inversify';
import type { Lifecycle } from './lifecycle.js';

/**
 * The memory family: every store in one process's memory, the in-process bus and a mailer that keeps what it
 * sends. Nothing outlives the process; tests and `storage: 'memory'` servers use it. It binds neither the
 * columnar store nor the PostgreSQL pool, so what needs them is left unbound.
 */
export function memoryModule(lifecycle: Lifecycle): ContainerModule {
  return new ContainerModule(({ bind }) => {
    const stores = new MemoryStores();
    const mailer = new MemoryMailer();
    bind<MessageBus>(MessageBus).toConstantValue(new InProcessMessageBus());
    bind<Mailer>(Mailer).toConstantValue(mailer);
    bind<IdempotencyStore>(IdempotencyStore).toConstantValue(new MemoryIdempotencyStore());
    bind<IdentityStore>(IdentityStore).toConstantValue(stores.identity.repositories());
    bind<ProfileStore>(ProfileStore).toConstantValue(stores.profiles.repository());
    bind<LinkedIpStore>(LinkedIpStore).toConstantValue(stores.linkedIps.repository());
    bind<NodeStore>(NodeStore).toConstantValue(stores.nodes.repository());
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
