import { createMessageBus } from '@svc/adapters';
import { MessageBus } from '@svc/domain';
import { ContainerModule } from 'inversify';
import type { Lifecycle } from './lifecycle.js';
import type { BusSettings } from './settings/bus.settings.js';

/**
 * Bound when the bus carries messages between the servers of a deployment (NATS), so that what one server
 * publishes reaches the links and caches of the others; unbound, the bus is this process's own.
 */
export const CrossServerBus = Symbol.for('svc.CrossServerBus');
export interface CrossServerBus {
  readonly transport: 'nats';
}

/**
 * The bus of the engine-backed stores: NATS with NATS_URL, which carries the outbox's messages to every server
 * of a deployment, else an in-process bus (one server holding the embedded engines needs no other).
 */
export function natsModule(settings: BusSettings, lifecycle: Lifecycle): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<MessageBus>(MessageBus).toResolvedValue(async () =>
      lifecycle.own(
        'message bus',
        await createMessageBus({ natsUrl: settings.natsUrl, natsTlsCa: settings.natsTlsCa }),
        (bus) => bus.close(),
      ),
    );
    if (settings.natsUrl !== undefined)
      bind<CrossServerBus>(CrossServerBus).toConstantValue({ transport: 'nats' });
  });
}
