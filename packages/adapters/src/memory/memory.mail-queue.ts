import type { MailDispatcher, Mailer, MailMessage, MailQueueWriter } from '@svc/domain';
import {
  MAIL_MAX_ATTEMPTS,
  MAIL_SEND_TIMEOUT_MS,
  mailFailureText,
  mailRetryDelayMs,
} from '../mail/mail-retry.js';
import { type DrainBatch, DrainLoop, type ItemDeadline } from '../shared/drain-loop.js';
import type { Snapshottable } from './memory-snapshot.js';

/** One message not sent yet (sent messages leave the queue), and where its delivery stands. */
export interface QueuedMail {
  id: number;
  message: MailMessage;
  createdAt: Date;
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | undefined;
  givenUpAt: Date | undefined;
}

/** A message handed to a dispatcher, with the attempt it is on. */
export interface ClaimedMail {
  id: number;
  message: MailMessage;
  attempts: number;
}

interface Entry extends QueuedMail {
  claimed: boolean;
}

const copyMessage = (message: MailMessage): MailMessage => ({ ...message });

/**
 * The mail queue of an engine-free server. As a participant of `MemoryUnitOfWork` it keeps the promise of the
 * Postgres queue: what a run enqueues is dropped if the run fails, and stays invisible to the dispatcher until
 * the run is known to have committed (the dispatcher is nudged after the commit, or the next run starts, since
 * runs are serial), so a message of a run that fails is never sent.
 */
export class MemoryMailQueue implements Snapshottable {
  private entries: Entry[] = [];
  private nextId = 1;
  /** First id written by the run that took the last snapshot, while that run may still fail. */
  private uncommittedFrom: number | undefined;
  /** The clock deciding when a message is due; a test can move it to skip a backoff. */
  readonly now: () => Date;

  constructor(options: { now?: () => Date } = {}) {
    this.now = options.now ?? (() => new Date());
  }

  /** A writer for one run; `onEnqueued` lets the unit of work count the message. */
  writer(onEnqueued: () => void = () => undefined): MailQueueWriter {
    return {
      enqueue: async (message) => {
        const now = this.now();
        this.entries.push({
          id: this.nextId++,
          message: copyMessage(message),
          createdAt: now,
          attempts: 0,
          nextAttemptAt: now,
          lastError: undefined,
          givenUpAt: undefined,
          claimed: false,
        });
        onEnqueued();
      },
    };
  }

  /** Messages neither sent nor given up, oldest first. */
  pending(): readonly MailMessage[] {
    return this.entries
      .filter((entry) => entry.givenUpAt === undefined)
      .map((entry) => copyMessage(entry.message));
  }

  /** Every message not sent, given up or not, with its delivery state. */
  list(): readonly QueuedMail[] {
    return this.entries.map(({ claimed: _claimed, ...entry }) => ({
      ...entry,
      message: copyMessage(entry.message),
    }));
  }

  snapshot(): number {
    this.uncommittedFrom = this.nextId;
    return this.nextId;
  }

  restore(snapshot: unknown): void {
    if (typeof snapshot !== 'number') throw new TypeError('not a snapshot of a MemoryMailQueue');
    this.entries = this.entries.filter((entry) => entry.id < snapshot);
    this.uncommittedFrom = undefined;
  }

  /** The run that took the last snapshot committed: its messages may be sent. */
  committed(): void {
    this.uncommittedFrom = undefined;
  }

  /** Hands the oldest due message to a dispatcher and counts the attempt; others skip it until it settles. */
  claim(): ClaimedMail | undefined {
    const now = this.now().getTime();
    const entry = this.entries.find(
      (candidate) =>
        !candidate.claimed &&
        candidate.givenUpAt === undefined &&
        candidate.nextAttemptAt.getTime() <= now &&
        (this.uncommittedFrom === undefined || candidate.id < this.uncommittedFrom),
    );
    if (entry === undefined) return undefined;
    entry.claimed = true;
    entry.attempts += 1;
    return { id: entry.id, message: copyMessage(entry.message), attempts: entry.attempts };
  }

  /** Records the outcome of a claimed message: sent (it leaves the queue), retried at `retryAt`, or given up. */
  settle(id: number, outcome: { sent: true } | { error: string; retryAt: Date | undefined }): void {
    if ('sent' in outcome) {
      this.entries = this.entries.filter((candidate) => candidate.id !== id);
      return;
    }
    const entry = this.entries.find((candidate) => candidate.id === id);
    if (entry === undefined) return;
    entry.claimed = false;
    entry.lastError = outcome.error;
    if (outcome.retryAt === undefined) entry.givenUpAt = this.now();
    else entry.nextAttemptAt = outcome.retryAt;
  }
}

/** Options of {@link MemoryMailDispatcher}. */
export interface MemoryMailDispatcherOptions {
  /** Background drain period, which also picks up retries whose backoff elapsed. Default 1 s. */
  intervalMs?: number;
  /** Failed sends and given-up messages; default stderr. */
  log?: (line: string) => void;
  /** How long a send may take before it counts as a failed attempt. Default {@link MAIL_SEND_TIMEOUT_MS}. */
  sendTimeoutMs?: number;
}

/**
 * Sends the messages of a {@link MemoryMailQueue} with the retry rules of the Postgres dispatcher: a send that
 * fails or does not settle within the time-out is retried after 5 s, doubling up to an hour, and given up after
 * {@link MAIL_MAX_ATTEMPTS} attempts.
 */
export class MemoryMailDispatcher implements MailDispatcher {
  private readonly loop: DrainLoop;
  private readonly log: (line: string) => void;

  constructor(
    private readonly queue: MemoryMailQueue,
    private readonly mailer: Mailer,
    options: MemoryMailDispatcherOptions = {},
  ) {
    const log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.log = log;
    this.loop = new DrainLoop({
      batch: (within) => this.sendNext(within),
      intervalMs: options.intervalMs,
      itemTimeoutMs: options.sendTimeoutMs ?? MAIL_SEND_TIMEOUT_MS,
      timeoutMessage: 'the mailer did not answer',
      onError: (error) => log(`mail dispatch failed: ${mailFailureText(error)}`),
    });
  }

  drain(): Promise<number> {
    return this.loop.drain();
  }

  /** Called after a commit that queued mail: releases that run's messages and sends them. */
  nudge(): void {
    this.queue.committed();
    this.loop.wake();
  }

  start(): void {
    this.loop.start();
  }

  /** Sends what is due before it resolves (each send bounded by the time-out): memory mail does not outlive the process. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Sends the oldest due message, one at a time; the loop goes on while there was one. */
  private async sendNext(within: ItemDeadline): Promise<DrainBatch> {
    const claim = this.queue.claim();
    if (claim === undefined) return { handled: 0, more: false };
    return { handled: (await this.deliver(claim, within)) ? 1 : 0, more: true };
  }

  private async deliver(claim: ClaimedMail, within: ItemDeadline): Promise<boolean> {
    try {
      await within(this.mailer.send(claim.message));
    } catch (error) {
      const reason = mailFailureText(error);
      const givingUp = claim.attempts >= MAIL_MAX_ATTEMPTS;
      const delayMs = mailRetryDelayMs(claim.attempts);
      const retryAt = givingUp ? undefined : new Date(this.queue.now().getTime() + delayMs);
      this.queue.settle(claim.id, { error: reason, retryAt });
      this.log(
        givingUp
          ? `mail ${claim.id} to ${claim.message.to} given up after ${claim.attempts} attempts: ${reason}`
          : `mail ${claim.id} to ${claim.message.to} failed (attempt ${claim.attempts} of ${MAIL_MAX_ATTEMPTS}), retrying in ${delayMs / 1000} s: ${reason}`,
      );
      return false;
    }
    this.queue.settle(claim.id, { sent: true });
    return true;
  }
}
