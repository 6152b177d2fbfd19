import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL server the suite may use: TEST_DATABASE_URL, else this machine kind's local server. */
export const POSTGRES_SERVER_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Why the PostgreSQL server tests cannot run, or undefined when the server answers. */
export async function postgresServerUnavailable(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: POSTGRES_SERVER_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return `${POSTGRES_SERVER_URL} does not answer (${error instanceof Error ? error.message : String(error)})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Creates a database of its own for one test file on the server; `drop` removes it. */
export async function createScratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `svc_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_SERVER_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_SERVER_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: POSTGRES_SERVER_URL });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

/** Reachability checked once at collection time, with the reason printed when the server tests are skipped. */
export const postgresServerSkipReason = await postgresServerUnavailable();
if (postgresServerSkipReason !== undefined) {
  console.warn(`PostgreSQL server tests skipped: ${postgresServerSkipReason}`);
}
