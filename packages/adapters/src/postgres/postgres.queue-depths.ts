import type pg from 'pg';

/** What waits in the database's queues, for operators' metrics. */
export interface QueueDepths {
  /** Outbox rows committed and not yet published to the bus. */
  outboxPending: number;
  /** Age in seconds of the oldest unpublished outbox row; 0 when none waits. */
  outboxLagSeconds: number;
  /** Mail not yet sent and not given up. */
  mailPending: number;
  /** Mail given up after the last attempt (kept a week). */
  mailGivenUp: number;
}

/** The oldest unsent row is found through the partial index on unsent ids, not by scanning created_at. */
const QUEUE_DEPTHS = `
SELECT (SELECT count(*) FROM outbox WHERE sent_at IS NULL)::int AS outbox_pending,
       COALESCE(EXTRACT(EPOCH FROM now() - (
         SELECT created_at FROM outbox WHERE sent_at IS NULL ORDER BY id LIMIT 1)), 0)::float8 AS outbox_lag_seconds,
       (SELECT count(*) FROM mail_queue WHERE sent_at IS NULL AND given_up_at IS NULL)::int AS mail_pending,
       (SELECT count(*) FROM mail_queue WHERE given_up_at IS NOT NULL)::int AS mail_given_up`;

/** Reads the outbox and mail queue depths in one statement (read at scrape time, not per request). */
export async function postgresQueueDepths(pool: pg.Pool): Promise<QueueDepths> {
  const result = await pool.query<{
    outbox_pending: number;
    outbox_lag_seconds: number;
    mail_pending: number;
    mail_given_up: number;
  }>(QUEUE_DEPTHS);
  const row = result.rows[0];
  return {
    outboxPending: row?.outbox_pending ?? 0,
    outboxLagSeconds: Math.max(0, row?.outbox_lag_seconds ?? 0),
    mailPending: row?.mail_pending ?? 0,
    mailGivenUp: row?.mail_given_up ?? 0,
  };
}
