import type { BusDelivery, BusSubscription, MessageBus } from '@svc/domain';

/** True when `subject` matches the NATS-style `pattern` (`*` one token, `>` one or more trailing tokens). */
export function subjectMatches(pattern: string, subject: string): boolean {
  const wanted = pattern.split('.');
  const actual = subject.split('.');
  for (let index = 0; index < wanted.length; index += 1) {
    const token = wanted[index];
    if (token === '>') return actual.length > index;
    if (index >= actual.length) return false;
    if (token !== '*' && token !== actual[index]) return false;
  }
  return wanted.length === actual.length;
}

interface Subscriber {
  pattern: string;
  handler: (delivery: BusDelivery) => void | Promise<void>;
  /** Deliveries to this subscriber run one after another, in publish order. */
  tail: Promise<void>;
  active: boolean;
}

/**
 * The bus of a single process: what the embedded default and tests use. Deliveries are asynchronous and in
 * publish order per subscriber; a failing handler is reported to `onError` and never reaches the publisher.
 */
export class InProcessMessageBus implements MessageBus {
  private readonly subscribers = new Set<Subscriber>();
  private closed = false;

  constructor(private readonly onError: (error: unknown, delivery: BusDelivery) => void = () => undefined) {}

  async publish(subject: string, payload: unknown, options: { messageId?: string } = {}): Promise<void> {
    if (this.closed) throw new Error('the message bus is closed');
    // A structured copy, as a network bus would deliver: subscribers never share the publisher's objects.
    const delivery: BusDelivery = { subject, payload: structuredClone(payload), ...options };
    for (const subscriber of this.subscribers) {
      if (!subjectMatches(subscriber.pattern, subject)) continue;
      subscriber.tail = subscriber.tail.then(async () => {
        if (!subscriber.active) return;
        try {
          await subscriber.handler(delivery);
        } catch (error) {
          this.onError(error, delivery);
        }
      });
    }
  }

  async subscribe(
    subject: string,
    handler: (delivery: BusDelivery) => void | Promise<void>,
  ): Promise<BusSubscription> {
    const subscriber: Subscriber = { pattern: subject, handler, tail: Promise.resolve(), active: true };
    this.subscribers.add(subscriber);
    return {
      unsubscribe: async () => {
        subscriber.active = false;
        this.subscribers.delete(subscriber);
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.subscribers].map((subscriber) => subscriber.tail));
    this.subscribers.clear();
  }
}
