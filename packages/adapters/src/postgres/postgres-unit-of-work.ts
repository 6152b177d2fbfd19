import type { OutboxMessage, TransactionScope, UnitOfWork } from '@svc/domain';
import type pg from 'pg';

/** Inserts one outbox row in the caller's transaction. */
async function enqueue(client: pg.PoolClient, message: OutboxMessage): Promise<void> {
  await client.query('INSERT INTO outbox (subject, payload) VALUES ($1, $2)', [
    message.subject,
    JSON.stringify(message.payload),
  ]);
}

/**
 * One Postgres transaction per run, on one pooled connection: everything the work writes, outbox rows
 * included, commits or rolls back together.
 */
export class PostgresUnitOfWork implements UnitOfWork {
  constructor(
    private readonly pool: pg.Pool,
    private readonly options: { onCommitWithMessages?: () => void } = {},
  ) {}

  async run<T>(work: (tx: TransactionScope) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let enqueued = 0;
    try {
      await client.query('BEGIN');
      const scope: TransactionScope = {
        outbox: {
          enqueue: async (message) => {
            await enqueue(client, message);
            enqueued += 1;
          },
        },
      };
      let result: T;
      try {
        result = await work(scope);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
      if (enqueued > 0) this.options.onCommitWithMessages?.();
      return result;
    } finally {
      client.release();
    }
  }
}
