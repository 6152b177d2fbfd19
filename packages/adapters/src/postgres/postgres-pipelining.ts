import type pg from 'pg';

/**
 * Starts a transaction. On a pipelining connection (a PostgreSQL server: the pool's clients have `pipeline`)
 * BEGIN is not waited for, so it reaches the server with the transaction's first statement in one round
 * trip; the promise returned must be awaited before the commit so that a failed BEGIN still fails the work.
 */
export async function beginTransaction(client: pg.PoolClient): Promise<() => Promise<void>> {
  const begun = client.query('BEGIN');
  if (!client.pipeline) {
    await begun;
    return async () => undefined;
  }
  begun.catch(() => undefined);
  return async () => {
    await begun;
  };
}

/**
 * Runs the transaction's last statement and commits; on a pipelining connection both go out at once. When
 * the statement fails, the server answers the COMMIT behind it by rolling back, and the statement's error is
 * thrown (the caller's ROLLBACK then only draws a warning).
 */
export async function commitWithLast(client: pg.PoolClient, last: pg.QueryConfig): Promise<void> {
  const answer = client.query(last);
  if (!client.pipeline) {
    await answer;
    await client.query('COMMIT');
    return;
  }
  const [statement, commit] = await Promise.allSettled([answer, client.query('COMMIT')]);
  if (statement.status === 'rejected') throw statement.reason;
  if (commit.status === 'rejected') throw commit.reason;
}
