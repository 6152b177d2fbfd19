import type pg from 'pg';

/** A pool or one transaction's client: repositories run the same SQL on either. */
export type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;
