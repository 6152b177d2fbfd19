import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase, postgresServerSkipReason } from '@svc/testing/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPostgresDatabase,
  migratePostgres,
  type PostgresDatabase,
  PostgresUnitOfWork,
  postgresMigrationFiles,
  postgresTransactionRepositories,
} from '../src/index.js';

/** The first migration that stores archives in chunks. */
const CHUNKS = '0016_data_export_chunks';
const T0 = new Date(Date.UTC(2026, 10, 23, 12));
const DAY_MS = 24 * 60 * 60 * 1000;

/** Applies the migrations before `until` as migratePostgres does: the schema of a server not yet upgraded. */
async function migrateBefore(database: PostgresDatabase, until: string): Promise<void> {
  await database.pool.query(
    'CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  for (const file of await postgresMigrationFiles()) {
    if (file.id >= until) return;
    await database.pool.query(file.sql);
    await database.pool.query('INSERT INTO schema_migrations (id) VALUES ($1)', [file.id]);
  }
}

/**
 * Archives stored whole in data_exports.archive before 0016 become the one chunk of their export, with the
 * size and SHA-256 of their bytes, so that an upgraded server still serves them; pending and expired exports
 * get no chunk.
 */
function runMigrationCheck(
  name: string,
  open: () => Promise<{ database: PostgresDatabase; dispose(): Promise<void> }>,
  skip = false,
) {
  describe.skipIf(skip)(`${CHUNKS} on ${name}`, () => {
    let engine: { database: PostgresDatabase; dispose(): Promise<void> };
    beforeAll(async () => {
      engine = await open();
    }, 60_000);
    afterAll(async () => engine?.dispose());

    it('moves each stored archive into one chunk, byte for byte, with its size and SHA-256', async () => {
      const { pool } = engine.database;
      await migrateBefore(engine.database, CHUNKS);
      const [orgId, accountId, ready, pending] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      await pool.query('INSERT INTO organisations (id, name, created_at) VALUES ($1, $2, $3)', [
        orgId,
        'org',
        T0,
      ]);
      await pool.query(
        `INSERT INTO accounts (id, org_id, role, email, plan, created_at)
         VALUES ($1, $2, 'owner', 'migrated@example.test', 'free', $3)`,
        [accountId, orgId, T0],
      );
      const archive = '{"type":"account_data","name":"Zoë"}\n{"type":"query_log","qname":"é.example"}\n';
      await pool.query(
        `INSERT INTO data_exports (id, account_id, org_id, status, created_at, completed_at, expires_at, size_bytes, archive)
         VALUES ($1, $3, $4, 'ready', $5, $5, $6, $7, $8), ($2, $3, $4, 'pending', $5, NULL, NULL, NULL, NULL)`,
        [
          ready,
          pending,
          accountId,
          orgId,
          T0,
          new Date(T0.getTime() + 7 * DAY_MS),
          Buffer.byteLength(archive),
          archive,
        ],
      );

      expect(await migratePostgres(pool)).toContain(CHUNKS);

      const uow = new PostgresUnitOfWork(pool, { repositories: postgresTransactionRepositories });
      const bytes = Buffer.from(archive, 'utf8');
      expect(await uow.run((tx) => tx.exports.find(accountId, ready))).toMatchObject({
        status: 'ready',
        sizeBytes: bytes.length,
        chunkCount: 1,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      });
      const chunk = await uow.run((tx) => tx.exports.chunk(accountId, ready, 0, T0));
      expect(Buffer.from(chunk ?? new Uint8Array()).equals(bytes)).toBe(true);
      expect(await uow.run((tx) => tx.exports.chunk(accountId, ready, 1, T0))).toBeNull();
      expect(await uow.run((tx) => tx.exports.find(accountId, pending))).toMatchObject({
        status: 'pending',
        chunkCount: null,
        sha256: null,
      });
      const columns = await pool.query(
        "SELECT 1 FROM information_schema.columns WHERE table_name = 'data_exports' AND column_name = 'archive'",
      );
      expect(columns.rows).toEqual([]);
    });
  });
}

runMigrationCheck('PGlite', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-pglite-'));
  const database = await createPostgresDatabase({ dataDir });
  // A first start copies a template that holds every migration: start from an empty schema instead.
  await database.pool.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
  return {
    database,
    dispose: async () => {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
runMigrationCheck(
  'PostgreSQL server',
  async () => {
    const scratch = await createScratchDatabase();
    const database = await createPostgresDatabase({ url: scratch.url });
    return {
      database,
      dispose: async () => {
        await database.close();
        await scratch.drop();
      },
    };
  },
  postgresServerSkipReason !== undefined,
);
