import { createMessageBus } from '@svc/adapters';
import { MessageBus } from '@svc/domain';
import { ContainerModule } from 'inversify';
import type { Lifecycle } from './lifecycle.js';
import type { BusSettings } from './settings/bus.settings.js';
import { BusTransport } from './tokens.js';

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
    bind<BusTransport>(BusTransport).toConstantValue(settings.natsUrl === undefined ? 'in_process' : 'nats');
  });
}
