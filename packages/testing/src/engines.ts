import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPostgresDatabase, migratePostgres, type PostgresDatabase } from '@svc/adapters';
import { createScratchDatabase } from './postgres-server.js';

/** A migrated database on one engine, and how to dispose of it. */
export interface TestDatabase {
  database: PostgresDatabase;
  dispose(): Promise<void>;
}

/** PGlite in a temporary data dir, migrated. */
export async function openPglite(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-pglite-'));
  const database = await createPostgresDatabase({ dataDir });
  await migratePostgres(database.pool);
  return {
    database,
    dispose: async () => {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A scratch database on the PostgreSQL server, migrated. */
export async function openPostgresServer(): Promise<TestDatabase> {
  const scratch = await createScratchDatabase();
  const database = await createPostgresDatabase({ url: scratch.url });
  await migratePostgres(database.pool);
  return {
    database,
    dispose: async () => {
      await database.close();
      await scratch.drop();
    },
  };
}
