import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPostgresDatabase, type PostgresLocation } from '@svc/adapters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBenchAccount } from '../bench/bench-account.js';
import { exitOf, listeningUrl, spawnSvc, svcBuilt } from '../support/cli-process.js';
import { type RawAnswer, send } from '../support/http.js';
import {
  freePort,
  type PrivatePostgres,
  privatePostgresUnavailable,
  startPrivatePostgres,
} from '../support/private-engines.js';

// Every `svc` here is the compiled CLI, rebuilt first when a source is newer than its build.
beforeAll(svcBuilt, 240_000);

/**
 * Issue 10, faults: `kill -9` of an API server process while clients write, then a new server on the same
 * data. No acknowledged write is lost and nothing is half-written: every acknowledged profile is there as
 * acknowledged, the profile written with If-Match is at its last acknowledged version (or the one after, when
 * the request in flight at the kill had committed without being answered), and every stored version has its
 * publication in the outbox, once.
 *
 * On the embedded default this is the promise the README makes: PGlite runs with fsync off, and each commit is
 * written to the data files (the OS page cache) before the answer, so an acknowledged write survives the
 * process being killed. It does not promise to survive the machine losing power.
 */
const CREATORS = 4;
const closedPort = await freePort();
const LOAD_MS = 1_500;

interface Running {
  child: ChildProcessWithoutNullStreams;
  url: string;
}

async function serve(dataDir: string, env: Record<string, string>): Promise<Running> {
  const child = spawnSvc(['serve', '--port', '0', '--data-dir', dataDir], {
    SVC_ENV: 'development',
    SVC_RATE_LIMIT_PER_MINUTE: '1000000',
    // No query logs here: a ClickHouse server that does not answer spares each start the embedded chdb.
    CLICKHOUSE_URL: `http://127.0.0.1:${closedPort}`,
    ...env,
  });
  return { child, url: await listeningUrl(child) };
}

interface Stored {
  profiles: number;
  versions: number[];
  publications: { version: number; count: number }[];
}

/** Reads what the database holds for `profileId`, through a pool of its own (no server running). */
async function storedState(location: PostgresLocation, profileId: string): Promise<Stored> {
  const database = await createPostgresDatabase(location);
  try {
    const profiles = await database.pool.query<{ count: string }>(
      'SELECT count(*) FROM profiles WHERE tombstoned_at IS NULL',
    );
    const versions = await database.pool.query<{ version: number }>(
      'SELECT version FROM profiles WHERE id = $1',
      [profileId],
    );
    const publications = await database.pool.query<{ version: number; count: string }>(
      `SELECT (payload->>'version')::int AS version, count(*) FROM outbox WHERE subject = $1
        GROUP BY 1 ORDER BY 1`,
      [`profiles.${profileId}`],
    );
    return {
      profiles: Number(profiles.rows[0]?.count),
      versions: versions.rows.map((row) => row.version),
      publications: publications.rows.map((row) => ({ version: row.version, count: Number(row.count) })),
    };
  } finally {
    await database.close();
  }
}

function killTest(
  storage: 'embedded PGlite' | 'PostgreSQL server',
  openDatabase: () => Promise<string | undefined>,
) {
  return async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-kill-'));
    const databaseUrl = await openDatabase();
    const env: Record<string, string> = databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl };
    const location: PostgresLocation = databaseUrl === undefined ? { dataDir } : { url: databaseUrl };
    let running: Running | undefined;
    try {
      running = await serve(dataDir, env);
      const { url } = running;
      const account = await createBenchAccount(url, dataDir, ['profiles:read', 'profiles:write']);
      const auth = { authorization: `Bearer ${account.token}` };
      const first = await send(`${url}/v1/profiles`, {
        method: 'POST',
        headers: auth,
        body: { name: 'versioned' },
      });
      expect(first.status).toBe(201);
      const profileId = (first.json as { id: string }).id;
      let etag = first.headers.etag ?? '';
      let acknowledgedVersion = 1;
      let acknowledgedName = 'versioned';
      const created = new Map<string, string>();
      let killed = false;
      let sequence = 0;
      /** A request cut by the kill has no answer: it was not acknowledged. */
      const attempt = (request: Promise<RawAnswer>) => request.catch(() => undefined);

      const creator = async () => {
        while (!killed) {
          sequence += 1;
          const name = `created ${sequence}`;
          const answer = await attempt(
            send(`${url}/v1/profiles`, { method: 'POST', headers: auth, body: { name } }),
          );
          if (answer?.status === 201) created.set((answer.json as { id: string }).id, name);
        }
      };
      const patcher = async () => {
        while (!killed) {
          const name = `version ${acknowledgedVersion + 1}`;
          const answer = await attempt(
            send(`${url}/v1/profiles/${profileId}`, {
              method: 'PATCH',
              headers: { ...auth, 'if-match': etag, 'content-type': 'application/merge-patch+json' },
              body: JSON.stringify({ name }),
            }),
          );
          if (answer?.status !== 200) continue;
          etag = answer.headers.etag ?? '';
          acknowledgedVersion = (answer.json as { version: number }).version;
          acknowledgedName = name;
        }
      };
      const load = Promise.all([patcher(), ...Array.from({ length: CREATORS }, creator)]);
      await new Promise((resolve) => setTimeout(resolve, LOAD_MS));
      running.child.kill('SIGKILL');
      await exitOf(running.child);
      killed = true;
      await load;

      running = await serve(dataDir, env);
      const restarted = running.url;
      for (const [id, name] of created) {
        const stored = await send(`${restarted}/v1/profiles/${id}`, { headers: auth });
        expect(stored.status, `acknowledged profile ${id}`).toBe(200);
        expect((stored.json as { name: string }).name).toBe(name);
      }
      const versioned = await send(`${restarted}/v1/profiles/${profileId}`, { headers: auth });
      const { version, name } = versioned.json as { version: number; name: string };
      expect([acknowledgedVersion, acknowledgedVersion + 1]).toContain(version);
      if (version === acknowledgedVersion) expect(name).toBe(acknowledgedName);

      running.child.kill('SIGTERM');
      await exitOf(running.child);
      running = undefined;
      const stored = await storedState(location, profileId);
      // The first profile and the acknowledged ones, plus at most one unanswered creation per creator.
      expect(stored.profiles).toBeGreaterThanOrEqual(1 + created.size);
      expect(stored.profiles).toBeLessThanOrEqual(1 + created.size + CREATORS);
      expect(stored.versions).toEqual([version]);
      // Every version the profile went through was published, once: no write without its publication.
      expect(stored.publications).toEqual(
        Array.from({ length: version }, (_, index) => ({ version: index + 1, count: 1 })),
      );
      console.info(
        `kill -9 on the ${storage}: ${created.size} creations and ${acknowledgedVersion - 1} If-Match writes ` +
          `acknowledged before the kill, all stored; the profile came back at version ${version}`,
      );
    } finally {
      if (running !== undefined) {
        running.child.kill('SIGKILL');
        await exitOf(running.child);
      }
      rmSync(dataDir, { recursive: true, force: true });
    }
  };
}

describe('kill -9 of the API server mid-write', () => {
  it(
    'loses no acknowledged write and leaves nothing half-written on the embedded PGlite',
    killTest('embedded PGlite', async () => undefined),
    180_000,
  );

  const skipReason = privatePostgresUnavailable();
  if (skipReason !== undefined) console.warn(`kill -9 on the PostgreSQL server skipped: ${skipReason}`);
  let postgres: PrivatePostgres | undefined;
  afterAll(async () => {
    await postgres?.destroy();
  });
  it.skipIf(skipReason !== undefined)(
    'loses no acknowledged write and leaves nothing half-written on the PostgreSQL server',
    killTest('PostgreSQL server', async () => {
      postgres = await startPrivatePostgres();
      return postgres.url;
    }),
    180_000,
  );
});
