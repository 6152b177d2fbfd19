import type pg from 'pg';
import { postgresIdentityRepositories } from './postgres-identity.repositories.js';
import { PostgresMailQueueWriter } from './postgres-mail-queue.js';
import type { TransactionRepositories } from './postgres-unit-of-work.js';

/** Every repository of one Postgres transaction, on its client. */
export function postgresTransactionRepositories(
  client: pg.PoolClient,
  counters: { mail: () => void },
): TransactionRepositories {
  return {
    mail: new PostgresMailQueueWriter(client, counters.mail),
    identity: postgresIdentityRepositories(client),
  };
}
