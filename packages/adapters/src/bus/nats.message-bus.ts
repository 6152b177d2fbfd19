import type { BusDelivery, BusSubscription, MessageBus } from '@svc/domain';
import type { Codec, NatsConnection, Subscription } from 'nats';

/** The client library, loaded by `connect`: a server without NATS_URL never holds it. */
type NatsLibrary = typeof import('nats');
/** Header carrying the outbox row id, which JetStream also uses for de-duplication. */
const MESSAGE_ID_HEADER = 'Nats-Msg-Id';

/**
 * The servers of a NATS_URL without their user info, and the user and password it names (the client library
 * sends neither from a server URL): one user for the cluster, so the first URL naming one gives it.
 */
export function natsServers(url: string): {
  servers: string[];
  credentials: { user: string; pass: string } | Record<string, never>;
} {
  const parsed = url.split(',').map((server) => new URL(server.trim()));
  const named = parsed.find((server) => server.username !== '');
  return {
    servers: parsed.map((server) => `${server.protocol}//${server.host}`),
    credentials:
      named === undefined
        ? {}
        : { user: decodeURIComponent(named.username), pass: decodeURIComponent(named.password) },
  };
}

/**
 * The bus on NATS (NATS_URL): JSON payloads, the outbox id as `Nats-Msg-Id`. Core NATS subjects and wildcards
 * are the same as the in-process bus's, so subscribers do not know which one they are on.
 */
export class NatsMessageBus implements MessageBus {
  private readonly codec: Codec<unknown>;

  private constructor(
    private readonly nats: NatsLibrary,
    private readonly connection: NatsConnection,
    private readonly onError: (error: unknown, delivery: BusDelivery) => void,
  ) {
    this.codec = nats.JSONCodec<unknown>();
  }

  /**
   * Connects to `url` (one server or several, comma-separated), as the user its `user:pass@` names, over TLS
   * checked against `tlsCa` when given.
   */
  static async connect(
    url: string,
    onError: (error: unknown, delivery: BusDelivery) => void = () => undefined,
    options: { tlsCa?: string | undefined } = {},
  ): Promise<NatsMessageBus> {
    const { servers, credentials } = natsServers(url);
    // Reconnect for as long as it takes (the client's default gives up after 10 attempts, about 20 s, and the
    // bus would then stay closed for the life of the process); the outbox keeps what waits meanwhile.
    const nats = await import('nats');
    const connection = await nats.connect({
      servers,
      name: 'svc-api',
      maxReconnectAttempts: -1,
      ...credentials,
      ...(options.tlsCa === undefined ? {} : { tls: { caFile: options.tlsCa } }),
    });
    return new NatsMessageBus(nats, connection, onError);
  }

  async publish(subject: string, payload: unknown, options: { messageId?: string } = {}): Promise<void> {
    const messageHeaders = options.messageId === undefined ? undefined : this.nats.headers();
    if (options.messageId !== undefined) messageHeaders?.set(MESSAGE_ID_HEADER, options.messageId);
    this.connection.publish(
      subject,
      this.codec.encode(payload),
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
          payload: this.codec.decode(message.data),
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
