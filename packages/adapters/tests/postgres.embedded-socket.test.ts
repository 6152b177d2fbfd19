import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../src/postgres/embedded-postgres.js';

const scratch: string[] = [];
afterEach(() => {
  for (const folder of scratch.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function scratchDir(name = 'svc-pg-socket-'): string {
  const folder = mkdtempSync(join(tmpdir(), name));
  scratch.push(folder);
  return folder;
}

async function answers(connection: pg.ClientConfig): Promise<number | undefined> {
  const client = new pg.Client(connection);
  await client.connect();
  try {
    return (await client.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one;
  } finally {
    await client.end();
  }
}

/**
 * The embedded PostgreSQL has no authentication, so it is served on an owner-only Unix socket and never on a
 * TCP port (issue 27, finding 7; the end-to-end check of the server's listening sockets is in
 * test/e2e/production-start.e2e.test.ts).
 */
describe(startEmbeddedPostgres.name, () => {
  it('listens on a socket in <dataDir>/pg-socket, owner-only, and removes it when stopped', async () => {
    const dataDir = scratchDir();
    const embedded = await startEmbeddedPostgres(dataDir);
    const socket = join(dataDir, 'pg-socket', '.s.PGSQL.5432');
    try {
      expect(embedded.connection).toEqual({
        host: join(dataDir, 'pg-socket'),
        port: 5432,
        user: 'postgres',
        database: 'postgres',
      });
      expect(statSync(join(dataDir, 'pg-socket')).mode & 0o777).toBe(0o700);
      expect(statSync(socket).isSocket()).toBe(true);
      expect(statSync(socket).mode & 0o777).toBe(0o600);
      expect(await answers(embedded.connection)).toBe(1);
    } finally {
      await embedded.stop();
    }
    expect(existsSync(socket)).toBe(false);
  }, 60_000);

  it('makes an existing socket directory owner-only and replaces a socket file a killed server left', async () => {
    const dataDir = scratchDir();
    mkdirSync(join(dataDir, 'pg-socket'), { mode: 0o755 });
    writeFileSync(join(dataDir, 'pg-socket', '.s.PGSQL.5432'), 'left by a killed server');
    const embedded = await startEmbeddedPostgres(dataDir);
    try {
      expect(statSync(join(dataDir, 'pg-socket')).mode & 0o777).toBe(0o700);
      expect(await answers(embedded.connection)).toBe(1);
    } finally {
      await embedded.stop();
    }
  }, 60_000);

  it('uses a private temporary directory when the data dir is too deep for a socket path', async () => {
    const dataDir = join(scratchDir(), 'a-data-dir-whose-path'.repeat(5));
    mkdirSync(dataDir, { recursive: true });
    const embedded = await startEmbeddedPostgres(dataDir);
    const directory = embedded.connection.host;
    try {
      expect(directory.startsWith(join(tmpdir(), 'svc-pg-'))).toBe(true);
      expect(statSync(directory).mode & 0o777).toBe(0o700);
      expect(await answers(embedded.connection)).toBe(1);
    } finally {
      await embedded.stop();
    }
    expect(existsSync(directory)).toBe(false);
  }, 60_000);
});
