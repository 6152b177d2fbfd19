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
  if (!client.pipeline) {
    await client.query(last);
    await client.query('COMMIT');
    return;
  }
  // pg writes each query's messages at once; corked, both queries leave in one write (one system call).
  const stream = client.connection.stream;
  stream.cork();
  let answer: Promise<unknown>;
  let committed: Promise<unknown>;
  try {
    answer = client.query(last);
    committed = client.query('COMMIT');
  } finally {
    stream.uncork();
  }
  const [statement, commit] = await Promise.allSettled([answer, committed]);
  if (statement.status === 'rejected') throw statement.reason;
  if (commit.status === 'rejected') throw commit.reason;
}
