import type { BusDelivery, MessageBus } from '@svc/domain';
import { InProcessMessageBus } from '../memory/in-process.message-bus.js';
import { NatsMessageBus } from './nats.message-bus.js';

/** The bus the settings choose: NATS with NATS_URL, else in-process. */
export async function createMessageBus(options: {
  natsUrl?: string | undefined;
  /** PEM file of the CA of the NATS servers' certificates: TLS is then required. */
  natsTlsCa?: string | undefined;
  onError?: (error: unknown, delivery: BusDelivery) => void;
}): Promise<MessageBus> {
  if (options.natsUrl !== undefined)
    return NatsMessageBus.connect(options.natsUrl, options.onError, {
      tlsCa: options.natsTlsCa,
    });
  return new InProcessMessageBus(options.onError);
}
