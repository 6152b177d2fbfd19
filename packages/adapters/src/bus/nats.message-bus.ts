import type { BusDelivery, BusSubscription, MessageBus } from '@svc/domain';
import { connect, headers, JSONCodec, type NatsConnection, type Subscription } from 'nats';

const codec = JSONCodec<unknown>();
/** Header carrying the outbox row id, which JetStream also uses for de-duplication. */
const MESSAGE_ID_HEADER = 'Nats-Msg-Id';

/**
 * The bus on NATS (NATS_URL): JSON payloads, the outbox id as `Nats-Msg-Id`. Core NATS subjects and wildcards
 * are the same as the in-process bus's, so subscribers do not know which one they are on.
 */
export class NatsMessageBus implements MessageBus {
  private constructor(
    private readonly connection: NatsConnection,
    private readonly onError: (error: unknown, delivery: BusDelivery) => void,
  ) {}

  /** Connects to `url` (one server or several, comma-separated). */
  static async connect(
    url: string,
    onError: (error: unknown, delivery: BusDelivery) => void = () => undefined,
  ): Promise<NatsMessageBus> {
    const servers = url.split(',').map((server) => server.trim());
    return new NatsMessageBus(await connect({ servers, name: 'svc-api' }), onError);
  }

  async publish(subject: string, payload: unknown, options: { messageId?: string } = {}): Promise<void> {
    const messageHeaders = options.messageId === undefined ? undefined : headers();
    if (options.messageId !== undefined) messageHeaders?.set(MESSAGE_ID_HEADER, options.messageId);
    this.connection.publish(
      subject,
      codec.encode(payload),
      messageHeaders === undefined ? {} : { headers: messageHeaders },
    );
    // publish only buffers; flush makes "published" mean the server has it, which the outbox relies on.
    await this.connection.flush();
  }

  async subscribe(
    subject: string,
    handler: (delivery: BusDelivery) => void | Promise<void>,
  ): Promise<BusSubscription> {
    const subscription: Subscription = this.connection.subscribe(subject);
    const pump = (async () => {
      for await (const message of subscription) {
        const messageId = message.headers?.get(MESSAGE_ID_HEADER);
        const delivery: BusDelivery = {
          subject: message.subject,
          payload: codec.decode(message.data),
          ...(messageId === undefined || messageId === '' ? {} : { messageId }),
        };
        try {
          await handler(delivery);
        } catch (error) {
          this.onError(error, delivery);
        }
      }
    })();
    // The subscription must be registered on the server before callers publish to it.
    await this.connection.flush();
    return {
      unsubscribe: async () => {
        subscription.unsubscribe();
        await pump;
      },
    };
  }

  async close(): Promise<void> {
    await this.connection.drain();
  }
}
