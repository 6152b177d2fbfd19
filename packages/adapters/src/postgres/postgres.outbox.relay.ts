import type { MessageBus, OutboxRelay } from '@svc/domain';
import type pg from 'pg';
import { DrainLoop } from '../shared/drain-loop.js';
import { beginTransaction, commitWithLast } from './postgres-pipelining.js';

/** Advisory lock held by the one relay draining at a time, across every server sharing the database. */
const RELAY_LOCK = 4_242_002;
const BATCH = 100;
/** Sent rows are kept this long for inspection, then purged. */
const KEEP_SENT_MS = 24 * 60 * 60 * 1000;

/**
 * Publishes committed outbox rows to the bus in id order, at least once. Only the server holding the advisory
 * lock drains, so order per subject holds across servers; a row is marked sent only after its publish
 * succeeded, and a failed publish stops the batch so that nothing after it overtakes it.
 */
export class PostgresOutboxRelay implements OutboxRelay {
  private readonly loop: DrainLoop;
  private lastPurge = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly bus: MessageBus,
    options: {
      intervalMs?: number;
      /**
       * Under load, how long a pass that found rows waits before the next one when more were committed
       * meanwhile (10 ms unless told): each drain then takes several writes' rows in one transaction instead
       * of one or two. A lone commit is still published at once.
       */
      batchDelayMs?: number;
      onError?: (error: unknown) => void;
    } = {},
  ) {
    this.loop = new DrainLoop({
      // A batch short of full took every row committed when it read: rows committed since then wake the loop
      // through their commit's nudge, so no extra empty pass is needed to find them.
      batch: async () => {
        const published = await this.drainBatch();
        return { handled: published, more: published === BATCH };
      },
      gatherMs: options.batchDelayMs ?? 10,
      onError: (error) => options.onError?.(error),
      intervalMs: options.intervalMs,
    });
  }

  /** Drains until no unsent row is left (or another server holds the lock); returns how many were published. */
  drain(): Promise<number> {
    return this.loop.drain();
  }

  /** Asks for a drain soon, typically right after a commit that wrote outbox rows. */
  nudge(): void {
    this.loop.wake();
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /**
   * One batch in two round trips on a pipelining connection: BEGIN with the SELECT that takes the advisory
   * lock and reads the rows (no rows when another server holds it), then the UPDATE that marks them sent
   * with the COMMIT.
   */
  private async drainBatch(): Promise<number> {
    const client = await this.pool.connect();
    const sent: string[] = [];
    let failure: unknown;
    try {
      const begun = await beginTransaction(client);
      try {
        // One row per unsent message, or one row of nulls: `locked` says whether this server may drain.
        const batch = await client.query<{
          locked: boolean;
          id: string | null;
          subject: string;
          payload: unknown;
        }>({
          name: 'outbox.relay-batch',
          text: `WITH relay AS (SELECT pg_try_advisory_xact_lock($1) AS locked)
           SELECT relay.locked, unsent.id::text AS id, unsent.subject, unsent.payload
           FROM relay LEFT JOIN LATERAL (
             SELECT id, subject, payload FROM outbox
             WHERE relay.locked AND sent_at IS NULL ORDER BY id LIMIT $2
           ) unsent ON true
           ORDER BY unsent.id`,
          values: [RELAY_LOCK, BATCH],
        });
        await begun();
        const rows = batch.rows.flatMap((row) =>
          row.id === null ? [] : [{ id: row.id, subject: row.subject, payload: row.payload }],
        );
        for (const row of rows) {
          try {
            await this.bus.publish(row.subject, row.payload, { messageId: row.id });
          } catch (error) {
            failure = error;
            break;
          }
          sent.push(row.id);
        }
        if (batch.rows[0]?.locked === true) await this.purgeSent(client);
        if (sent.length > 0)
          await commitWithLast(client, {
            name: 'outbox.mark-sent',
            text: 'UPDATE outbox SET sent_at = now() WHERE id = ANY($1::bigint[])',
            values: [sent],
          });
        else await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    } finally {
      client.release();
    }
    // Rows published before the failure are marked sent; the failed one and those after it wait, in order.
    if (failure !== undefined) throw failure;
    return sent.length;
  }

  private async purgeSent(client: pg.PoolClient): Promise<void> {
    const now = Date.now();
    if (now - this.lastPurge < 60_000) return;
    this.lastPurge = now;
    await client.query('DELETE FROM outbox WHERE sent_at < $1', [new Date(now - KEEP_SENT_MS)]);
  }
}
