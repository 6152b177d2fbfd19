/** A message written in the same transaction as the change it announces (transactional outbox). */
export interface OutboxMessage {
  /** Bus subject, for example `profiles.abc123` or `operator.changed`. */
  subject: string;
  /** JSON-serialisable body. */
  payload: unknown;
}

/** Writes outbox rows inside the caller's transaction; the relay publishes them after commit. */
export interface OutboxWriter {
  enqueue(message: OutboxMessage): Promise<void>;
}

/** The part of a transaction a use case that announces a change uses: the outbox it commits with. */
export interface OutboxScope {
  outbox: OutboxWriter;
}

/** Drains the outbox to the bus: at least once, in order per subject. */
export const OutboxRelay = Symbol.for('svc.OutboxRelay');
export interface OutboxRelay {
  /** Publishes every pending message once; returns how many were published. */
  drain(): Promise<number>;
  /** Starts draining in the background (after commits and on a short interval). */
  start(): void;
  /** Stops background draining and waits for a drain in flight. */
  stop(): Promise<void>;
}
