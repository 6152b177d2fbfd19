import type { Clock, QueryResult, Timers } from '@svc/domain';
import { problemFor, problemFromError } from '../problems/problem-document.js';
import type { EventChannel } from '../routes/route-definition.js';

/** How often the tail is polled (and the destination re-checked), the heartbeat, the longest stream (spec 6.1, 8). */
const STREAM_POLL_MS = 1_000;
const STREAM_HEARTBEAT_MS = 15_000;
const STREAM_MAX_MS = 3_600_000;
/**
 * How long a stream stays open while its credential and profile cannot be re-checked (the database out of
 * reach): long enough for a failover or a restart, short enough that a credential revoked meanwhile reads
 * little. Past it the stream sends a 503 `error` event and ends; the client's reconnect is checked afresh.
 */
const STREAM_RECHECK_GRACE_MS = 60_000;

/**
 * What a heartbeat's re-check found: still `allowed`, `revoked` (the credential ended or the profile is gone:
 * the stream ends), or `unchecked` (the check itself failed, the database out of reach: decided later).
 */
export type StreamPermission = 'allowed' | 'revoked' | 'unchecked';

/** Codes after which a stream goes on polling: the node may come back (spec 6.1). */
const TRANSIENT_CODES = new Set(['node_offline', 'node_timeout']);

/** What one live log stream reads and re-checks. */
export interface LogEventStreamDependencies {
  /** One tail poll through the log query service (routing by the destination at every call). */
  poll(cursor: string | undefined): Promise<QueryResult>;
  /** Whether the caller's credential and the profile still exist (checked at every heartbeat). */
  stillAllowed(): Promise<StreamPermission>;
  clock: Clock;
  timers: Timers;
  problemContext: { requestId: string; problemBase: string };
  /** Gives the account's stream slot back; called once when the stream is over. */
  release(): void;
  /** Rows a poll answers at most: a full answer means more are waiting, polled at once. */
  limit: number;
}

/**
 * Whether a poll failure leaves the stream open: node_offline, node_timeout and 5xx answers, except 501 (this
 * server or the node lacks the capability, which no later poll changes).
 */
export function isTransientFailure(
  error: unknown,
  context: LogEventStreamDependencies['problemContext'],
): boolean {
  const problem = problemFromError(error, context);
  return TRANSIENT_CODES.has(problem.body.code) || (problem.status >= 500 && problem.status !== 501);
}

/**
 * One live log stream (spec 6.1): `rows` events whose id is the tail cursor after them, `error` events with a
 * problem document, one `partial` event while a reconnecting node answers partial and empty, and a
 * `: heartbeat` comment every 15 s re-checking the credential and the profile. Polls one after another (never
 * two at once), so a slow poll delays the next instead of piling up.
 */
export class LogEventStream {
  private cursor: string | undefined;
  private partialSent = false;
  /** The code of the transient failure last sent: repeated failures are sent once until a poll succeeds. */
  private failedWith: string | null = null;
  private closed = false;
  /** The last poll answered a full page: the next one runs at once instead of a second later. */
  private backlogged = false;
  private cancelTimer: (() => void) | null = null;
  private readonly startedAt: number;
  private lastBeat: number;
  /** When the re-checks began failing (null while they succeed). */
  private uncheckedSince: number | null = null;

  constructor(
    private readonly deps: LogEventStreamDependencies,
    private readonly channel: EventChannel,
    cursor: string | undefined,
  ) {
    this.cursor = cursor;
    this.startedAt = deps.clock.now().getTime();
    this.lastBeat = this.startedAt;
    channel.onClose(() => this.stop());
  }

  /** Sends what the first poll gave (its result, or the transient failure), then polls every second. */
  start(first: { result: QueryResult } | { failure: unknown }): void {
    if ('result' in first) this.deliver(first.result);
    else this.fail(first.failure);
    this.schedule();
  }

  private schedule(): void {
    if (this.closed) return;
    this.cancelTimer = this.deps.timers.after(this.backlogged ? 0 : STREAM_POLL_MS, () => {
      this.cancelTimer = null;
      void this.tick().then(
        () => this.schedule(),
        () => this.end(),
      );
    });
  }

  private async tick(): Promise<void> {
    const now = this.deps.clock.now().getTime();
    if (now - this.startedAt >= STREAM_MAX_MS) return this.end();
    if (now - this.lastBeat >= STREAM_HEARTBEAT_MS) {
      this.lastBeat = now;
      this.channel.write(': heartbeat\n\n');
      if (!(await this.recheck(now))) return this.end();
      if (this.closed) return;
    }
    let result: QueryResult;
    try {
      result = await this.deps.poll(this.cursor);
    } catch (error) {
      this.backlogged = false;
      if (!this.closed) this.fail(error);
      return;
    }
    if (!this.closed) this.deliver(result);
  }

  /**
   * Only a revoked credential or a deleted profile ends the stream: an outage of the check keeps it open, the
   * next heartbeat checking again, until it lasted {@link STREAM_RECHECK_GRACE_MS}.
   */
  private async recheck(now: number): Promise<boolean> {
    const permission = await this.deps.stillAllowed().catch((): StreamPermission => 'unchecked');
    if (permission === 'allowed') {
      this.uncheckedSince = null;
      return true;
    }
    if (permission === 'revoked') return false;
    this.uncheckedSince ??= now;
    if (now - this.uncheckedSince < STREAM_RECHECK_GRACE_MS) return true;
    if (!this.closed) {
      const problem = problemFor(
        'internal',
        'The stream’s credential could not be re-checked for a minute: reconnect with Last-Event-ID shortly.',
        this.deps.problemContext,
        { retryAfter: 1, status: 503 },
      );
      this.channel.write(`event: error\ndata: ${JSON.stringify(problem.body)}\n\n`);
    }
    return false;
  }

  private deliver(result: QueryResult): void {
    this.failedWith = null;
    this.backlogged = result.rows.length >= this.deps.limit;
    if (result.rows.length > 0) {
      const id = result.next_cursor;
      if (id !== null) this.cursor = id;
      this.partialSent = false;
      this.channel.write(
        `${id === null ? '' : `id: ${id}\n`}event: rows\ndata: ${JSON.stringify(result)}\n\n`,
      );
      return;
    }
    // A tail without rows keeps (or first establishes) its position.
    if (result.next_cursor !== null) this.cursor = result.next_cursor;
    if (!result.partial) {
      this.partialSent = false;
      return;
    }
    if (this.partialSent) return;
    this.partialSent = true;
    this.channel.write(
      `event: partial\ndata: ${JSON.stringify({ partial: true, partial_reason: result.partial_reason ?? 'node_reconnecting' })}\n\n`,
    );
  }

  private fail(error: unknown): void {
    const problem = problemFromError(error, this.deps.problemContext);
    const transient = isTransientFailure(error, this.deps.problemContext);
    if (transient && this.failedWith === problem.body.code) return;
    this.failedWith = problem.body.code;
    this.channel.write(`event: error\ndata: ${JSON.stringify(problem.body)}\n\n`);
    if (!transient) this.end();
  }

  private end(): void {
    this.stop();
    this.channel.end();
  }

  private stop(): void {
    if (this.closed) return;
    this.closed = true;
    this.cancelTimer?.();
    this.cancelTimer = null;
    this.deps.release();
  }
}
