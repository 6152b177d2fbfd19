/** A message as delivered to a subscriber. */
export interface BusDelivery {
  subject: string;
  payload: unknown;
  /** The outbox row id when the message came through the outbox, for de-duplication by consumers. */
  messageId?: string;
}

/** A live subscription. */
export interface BusSubscription {
  unsubscribe(): Promise<void>;
}

/**
 * Publish/subscribe to the edge and other servers: in-process when embedded, NATS with NATS_URL. Subjects are
 * dot-separated; a subscription subject may end in `>` to match every subject under a prefix.
 */
export const MessageBus = Symbol.for('svc.MessageBus');
export interface MessageBus {
  publish(subject: string, payload: unknown, options?: { messageId?: string }): Promise<void>;
  subscribe(
    subject: string,
    handler: (delivery: BusDelivery) => void | Promise<void>,
  ): Promise<BusSubscription>;
  close(): Promise<void>;
}
