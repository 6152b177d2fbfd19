import type { MailDispatcher, Mailer, MailMessage, MailQueueWriter } from '@svc/domain';
import type pg from 'pg';
import {
  MAIL_MAX_ATTEMPTS,
  MAIL_SEND_TIMEOUT_MS,
  mailFailureText,
  mailRetryDelayMs,
} from '../mail/mail-retry.js';
import { type DrainBatch, DrainLoop, type ItemDeadline } from '../shared/drain-loop.js';

/** A claim outlives every send of its batch (bounded by the timeout); past it, another server may retry. */
const LEASE_MS = 5 * 60 * 1000;
const DEFAULT_BATCH = 10;
const KEEP_SENT = "interval '1 day'";
const KEEP_GIVEN_UP = "interval '7 days'";
/** The dispatcher's clock when it has one (tests), else the database's, shared by every server. */
const NOW = 'COALESCE($1::timestamptz, now())';

const CLAIM = `
UPDATE mail_queue
   SET attempts = attempts + 1, locked_until = ${NOW} + $2::double precision * interval '1 millisecond'
 WHERE id IN (
       SELECT id FROM mail_queue
        WHERE sent_at IS NULL AND given_up_at IS NULL AND next_attempt_at <= ${NOW}
          AND (locked_until IS NULL OR locked_until <= ${NOW})
        ORDER BY next_attempt_at, id
        LIMIT $3
          FOR UPDATE SKIP LOCKED)
RETURNING id::text AS id, recipient, subject, text_body, html_body, attempts`;

/**
 * A sent message keeps its recipient and subject (what was sent, to whom, for a day) but not its body: bodies
 * carry live single-use links (reset, recovery, verification), which would otherwise sit in the table.
 */
const MARK_SENT = `UPDATE mail_queue SET sent_at = ${NOW}, locked_until = NULL, text_body = '', html_body = NULL
 WHERE id = $2`;

/** A message given up is never sent: its body goes as a sent one's does. */
const MARK_FAILED = `
UPDATE mail_queue
   SET locked_until = NULL, last_error = $2,
       next_attempt_at = ${NOW} + $3::double precision * interval '1 millisecond',
       given_up_at = CASE WHEN $4::boolean THEN ${NOW} END,
       text_body = CASE WHEN $4::boolean THEN '' ELSE text_body END,
       html_body = CASE WHEN $4::boolean THEN NULL ELSE html_body END
 WHERE id = $5 AND sent_at IS NULL`;

const PURGE = `
DELETE FROM mail_queue
 WHERE sent_at < ${NOW} - ${KEEP_SENT} OR given_up_at < ${NOW} - ${KEEP_GIVEN_UP}`;

interface ClaimedRow {
  id: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  attempts: number;
}

/**
 * Queues mail in the caller's transaction (a pool client inside `BEGIN`), so that a rollback discards it and a
 * commit makes it durable; `onEnqueued` lets the unit of work count it and wake the dispatcher after commit.
 */
export class PostgresMailQueueWriter implements MailQueueWriter {
  constructor(
    private readonly client: pg.PoolClient | pg.Pool,
    private readonly onEnqueued: () => void = () => undefined,
  ) {}

  async enqueue(message: MailMessage): Promise<void> {
    await this.client.query(
      'INSERT INTO mail_queue (recipient, subject, text_body, html_body) VALUES ($1, $2, $3, $4)',
      [message.to, message.subject, message.text, message.html ?? null],
    );
    this.onEnqueued();
  }
}

/** Options of {@link PostgresMailDispatcher}. */
export interface PostgresMailDispatcherOptions {
  /** Background drain period; commits also nudge. Default 1 s. */
  intervalMs?: number;
  /** Rows claimed, and sent concurrently, at a time. Default 10. */
  batchSize?: number;
  /** Failed sends and given-up messages; default stderr. */
  log?: (line: string) => void;
  /** A clock for tests; by default the database's clock decides what is due. */
  now?: () => Date;
  /** How long a send may take before it counts as a failed attempt. Default {@link MAIL_SEND_TIMEOUT_MS}. */
  sendTimeoutMs?: number;
}

/**
 * Sends queued mail at least once, from any number of servers sharing the database: each claims due rows with a
 * lease (`FOR UPDATE SKIP LOCKED`, so no two claim the same row), sends them, and marks them sent, or records
 * the error and schedules a retry with exponential backoff, giving up after {@link MAIL_MAX_ATTEMPTS}. A server
 * that stops mid-send leaves its rows leased; they are sent again once the lease expires.
 */
export class PostgresMailDispatcher implements MailDispatcher {
  private readonly loop: DrainLoop;
  private lastPurge = 0;
  private readonly log: (line: string) => void;

  constructor(
    private readonly pool: pg.Pool,
    private readonly mailer: Mailer,
    private readonly options: PostgresMailDispatcherOptions = {},
  ) {
    const log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.log = log;
    this.loop = new DrainLoop({
      batch: (within) => this.sendBatch(within),
      intervalMs: options.intervalMs,
      itemTimeoutMs: options.sendTimeoutMs ?? MAIL_SEND_TIMEOUT_MS,
      timeoutMessage: 'the mailer did not answer',
      // Claimed rows are leased: what a stopped server leaves, another server (or the next start) sends.
      stopAfter: 'batch',
      onError: (error) => log(`mail dispatch failed: ${mailFailureText(error)}`),
    });
  }

  drain(): Promise<number> {
    return this.loop.drain();
  }

  nudge(): void {
    this.loop.wake();
  }

  start(): void {
    this.loop.start();
  }

  /** The batch in flight finishes (its sends are bounded by the time-out); no further batch starts. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  private clock(): Date | null {
    return this.options.now?.() ?? null;
  }

  /** Claims due rows and sends them concurrently; another batch follows while this one claimed any. */
  private async sendBatch(within: ItemDeadline): Promise<DrainBatch> {
    await this.purge();
    const claimed = await this.pool.query<ClaimedRow>(CLAIM, [
      this.clock(),
      LEASE_MS,
      this.options.batchSize ?? DEFAULT_BATCH,
    ]);
    // Every send settles before the batch ends, so stop() waits for all of them even when one update fails.
    const outcomes = await Promise.allSettled(claimed.rows.map((row) => this.deliver(row, within)));
    let sent = 0;
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') throw outcome.reason;
      if (outcome.value) sent += 1;
    }
    return { handled: sent, more: claimed.rows.length > 0 };
  }

  /** Sends one claimed row; true when sent. Mailer errors are recorded, database errors thrown. */
  private async deliver(row: ClaimedRow, within: ItemDeadline): Promise<boolean> {
    const message: MailMessage = { to: row.recipient, subject: row.subject, text: row.text_body };
    if (row.html_body !== null) message.html = row.html_body;
    try {
      await within(this.mailer.send(message));
    } catch (error) {
      await this.recordFailure(row, error);
      return false;
    }
    await this.pool.query(MARK_SENT, [this.clock(), row.id]);
    return true;
  }

  private async recordFailure(row: ClaimedRow, error: unknown): Promise<void> {
    const reason = mailFailureText(error);
    const givingUp = row.attempts >= MAIL_MAX_ATTEMPTS;
    const delayMs = givingUp ? 0 : mailRetryDelayMs(row.attempts);
    await this.pool.query(MARK_FAILED, [this.clock(), reason, delayMs, givingUp, row.id]);
    this.log(
      givingUp
        ? `mail ${row.id} to ${row.recipient} given up after ${row.attempts} attempts: ${reason}`
        : `mail ${row.id} to ${row.recipient} failed (attempt ${row.attempts} of ${MAIL_MAX_ATTEMPTS}), retrying in ${delayMs / 1000} s: ${reason}`,
    );
  }

  private async purge(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPurge < 60_000) return;
    this.lastPurge = now;
    await this.pool.query(PURGE, [this.clock()]);
  }
}
