import type { OutboxMessage, TransactionScope, UnitOfWork } from '@svc/domain';
import type pg from 'pg';
import type { TransactionRepositories } from '../shared/transaction-repositories.js';
import { beginTransaction, commitWithLast } from './postgres-pipelining.js';

/** What a committed run wrote that background workers care about. */
interface CommitSummary {
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

/** Rows per INSERT: a statement takes at most 65535 parameters. */
const OUTBOX_ROWS_PER_INSERT = 1000;

/** The INSERT of `messages`; named (parsed once per connection) for the usual single row. */
function outboxInsert(messages: readonly OutboxMessage[]): pg.QueryConfig {
  const rows = messages.map((_, index) => `($${index * 2 + 1}, $${index * 2 + 2})`).join(', ');
  return {
    ...(messages.length === 1 ? { name: 'outbox.insert' } : {}),
    text: `INSERT INTO outbox (subject, payload) VALUES ${rows}`,
    values: messages.flatMap((message) => [message.subject, JSON.stringify(message.payload)]),
  };
}

/**
 * Writes the run's outbox rows, in the order enqueued (ids follow it), and commits: the last INSERT travels
 * with the COMMIT. Nothing in a run reads its outbox rows back, so writing them at the end changes nothing.
 */
async function commitWithOutbox(client: pg.PoolClient, messages: readonly OutboxMessage[]): Promise<void> {
  if (messages.length === 0) {
    await client.query('COMMIT');
    return;
  }
  let from = 0;
  for (; messages.length - from > OUTBOX_ROWS_PER_INSERT; from += OUTBOX_ROWS_PER_INSERT) {
    await client.query(outboxInsert(messages.slice(from, from + OUTBOX_ROWS_PER_INSERT)));
  }
  await commitWithLast(client, outboxInsert(messages.slice(from)));
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
    const outbox: OutboxMessage[] = [];
    try {
      const begun = await beginTransaction(client);
      const scope: TransactionScope = {
        outbox: {
          enqueue: async (message) => {
            outbox.push(message);
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
        await begun();
        await commitWithOutbox(client, outbox);
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
