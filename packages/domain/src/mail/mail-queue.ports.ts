import type { MailMessage } from './mailer.ports.js';

/**
 * Durable outgoing mail: messages enqueued inside a transaction are sent after it commits, by a dispatcher
 * that retries with backoff, so a request never waits on or fails because of SMTP, and nothing is lost on a
 * restart. Messages of a transaction that rolls back are never sent.
 */
export interface MailQueueWriter {
  enqueue(message: MailMessage): Promise<void>;
}

/** The part of a transaction a use case that mails uses: mail queued in it goes out only if it commits. */
export interface MailScope {
  mail: MailQueueWriter;
}

/** Sends queued mail in the background. */
export const MailDispatcher = Symbol.for('svc.MailDispatcher');
export interface MailDispatcher {
  /** Sends every message due now; returns how many were sent. */
  drain(): Promise<number>;
  /** Starts sending in the background (after commits and on a short interval). */
  start(): void;
  /** Stops background sending and waits for a send in flight. */
  stop(): Promise<void>;
  /** Wakes the dispatcher (a transaction with mail committed). */
  nudge(): void;
}
