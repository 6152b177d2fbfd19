import { readdir, readFile } from 'node:fs/promises';
import type pg from 'pg';

/** The folder of plain SQL migrations, next to this module in the sources and copied beside the bundle. */
const MIGRATIONS = new URL('./postgres-migrations/', import.meta.url);

/** Arbitrary constant of the advisory lock that serialises migrations of several servers starting together. */
const MIGRATION_LOCK = 4_242_001;

/** The migration files in name order: `NNNN_name.sql`. */
export async function postgresMigrationFiles(): Promise<{ id: string; sql: string }[]> {
  const names = (await readdir(MIGRATIONS)).filter((name) => /^\d{4}_[a-z0-9_]+\.sql$/.test(name)).sort();
  return Promise.all(
    names.map(async (name) => ({
      id: name.replace(/\.sql$/, ''),
      sql: await readFile(new URL(name, MIGRATIONS), 'utf8'),
    })),
  );
}

/**
 * Applies pending migrations in one transaction under an advisory lock, so that servers starting together
 * apply each once and a failing migration leaves the schema as it was. Returns the ids applied now.
 */
export async function migratePostgres(pool: pg.Pool): Promise<string[]> {
  const files = await postgresMigrationFiles();
  const client = await pool.connect();
  try {
    const applied: string[] = [];
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const done = new Set(
        (await client.query<{ id: string }>('SELECT id FROM schema_migrations')).rows.map((row) => row.id),
      );
      for (const file of files) {
        if (done.has(file.id)) continue;
        await client.query(file.sql);
        await client.query('INSERT INTO schema_migrations (id) VALUES ($1)', [file.id]);
        applied.push(file.id);
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
    return applied;
  } finally {
    client.release();
  }
}
