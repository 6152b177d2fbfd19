import type { OutboxMessage, TransactionScope, UnitOfWork } from '@svc/domain';
import type pg from 'pg';

/** The repositories of one transaction other than the outbox, built on its connection. */
export type TransactionRepositories = Omit<TransactionScope, 'outbox'>;

/** What a committed run wrote that background workers care about. */
export interface CommitSummary {
  outboxMessages: number;
  mailMessages: number;
}

/** Options of {@link PostgresUnitOfWork}. */
export interface PostgresUnitOfWorkOptions {
  /** Builds the repositories of a transaction on its connection. */
  repositories: (client: pg.PoolClient, counters: { mail: () => void }) => TransactionRepositories;
  /** Called after a commit, to wake the outbox relay and the mail dispatcher. */
  onCommit?: (summary: CommitSummary) => void;
}

/** Inserts one outbox row in the caller's transaction. */
async function enqueue(client: pg.PoolClient, message: OutboxMessage): Promise<void> {
  await client.query('INSERT INTO outbox (subject, payload) VALUES ($1, $2)', [
    message.subject,
    JSON.stringify(message.payload),
  ]);
}

/**
 * One Postgres transaction per run, on one pooled connection: everything the work writes, outbox and mail rows
 * included, commits or rolls back together.
 */
export class PostgresUnitOfWork implements UnitOfWork {
  constructor(
    private readonly pool: pg.Pool,
    private readonly options: PostgresUnitOfWorkOptions,
  ) {}

  async run<T>(work: (tx: TransactionScope) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    const summary: CommitSummary = { outboxMessages: 0, mailMessages: 0 };
    try {
      await client.query('BEGIN');
      const scope: TransactionScope = {
        outbox: {
          enqueue: async (message) => {
            await enqueue(client, message);
            summary.outboxMessages += 1;
          },
        },
        ...this.options.repositories(client, {
          mail: () => {
            summary.mailMessages += 1;
          },
        }),
      };
      let result: T;
      try {
        result = await work(scope);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
      if (summary.outboxMessages > 0 || summary.mailMessages > 0) this.options.onCommit?.(summary);
      return result;
    } finally {
      client.release();
    }
  }
}
