import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase, postgresServerUnavailable } from '@svc/testing/postgres';
import pg from 'pg';
import { Pool as HttpPool } from 'undici';
import { createBenchAccount } from './bench-account.js';
import {
  build,
  cpuMilliseconds,
  exited,
  type Figures,
  load,
  ROOT,
  staleBuilds,
  waitForListening,
} from './bench-processes.js';
import { createProfile } from './bench-profiles.js';

/**
 * Part of `npm run bench` (issue 6). On the PostgreSQL server, through the full stack (the built server):
 * - GET /v1/profiles/{id} with an API token, next to GET /v1/meta, both with autocannon in its own process,
 *   in turns (see inTurns);
 * - PATCH /v1/profiles/{id} with If-Match (each write bumps the version and publishes the profile document
 *   through the outbox), by WRITERS clients each writing its own profile with the ETag of its previous answer;
 * next to, in the same run, the same work issued directly with `pg`: the profile SELECT; the write transaction
 * of the issue (SELECT … FOR UPDATE, UPDATE, INSERT INTO outbox, COMMIT) by as many clients; and, for
 * comparison, the statements the API itself issues per PATCH (it commits without holding the row lock across
 * round trips, see ProfileService.writeFields).
 * Targets: GET at 1.0 of the same SELECT issued directly with `pg` by as many clients or better (like with
 * like: both read the one row; meta, static, is printed for reference only); PATCH at 0.5 of the raw
 * transaction rate or better.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const WRITERS = Number(process.env.BENCH_WRITERS ?? 8);
/** Turns of GET /v1/meta and GET /v1/profiles/{id} (see inTurns). */
const ROUNDS = 4;
/**
 * Extra node options of the server, to profile it: `BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/p'`.
 * Split on spaces.
 */
const SERVER_NODE_ARGS = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');

const PROFILE_COLUMNS =
  'id, org_id, name, version, security, parental, settings, rules, lists, suspended, created_at, updated_at';

/** Requests per second and latency percentiles of a closed-loop run. */
interface LoopFigures {
  perSecond: number;
  p50: number;
  p99: number;
  failures: number;
  /** Steps that succeeded. */
  total: number;
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

/** Runs `workers` loops of `step` for `seconds`, each step timed; a step that throws counts as a failure. */
async function closedLoop(
  workers: number,
  seconds: number,
  step: (worker: number) => Promise<void>,
): Promise<LoopFigures> {
  const latencies: number[] = [];
  let failures = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      while (performance.now() < deadline) {
        const before = performance.now();
        try {
          await step(worker);
          latencies.push(performance.now() - before);
        } catch {
          failures += 1;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    perSecond: latencies.length / elapsed,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    failures,
    total: latencies.length,
  };
}

async function startServer(
  dataDir: string,
  databaseUrl: string,
): Promise<{ server: ChildProcess; url: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SVC_ENV: 'development',
    SVC_LOG_LEVEL: 'warn',
    SVC_RATE_LIMIT_PER_MINUTE: '100000000',
    DATABASE_URL: databaseUrl,
  };
  for (const name of ['CLICKHOUSE_URL', 'NATS_URL', 'SMTP_URL']) delete env[name];
  const server = spawn(
    process.execPath,
    [
      ...SERVER_NODE_ARGS,
      join(ROOT, 'packages/cli/dist/bin.js'),
      'serve',
      '--port',
      '0',
      '--data-dir',
      dataDir,
    ],
    { env, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return { server, url: await waitForListening(server) };
}

/**
 * PATCH with If-Match by WRITERS clients, each on its own profile and keep-alive connection, carrying the
 * ETag forward. The client is undici's `request`: `fetch` cost this process 0.55–0.9 ms of CPU per PATCH,
 * more than the server, on the cores the server and PostgreSQL share (undici's `request` 0.13–0.17 ms).
 */
async function patchThroughApi(
  http: HttpPool,
  token: string,
  profiles: { id: string; etag: string }[],
  seconds: number,
): Promise<LoopFigures> {
  let counter = 0;
  return closedLoop(profiles.length, seconds, async (worker) => {
    const profile = profiles[worker];
    if (profile === undefined) throw new Error('no profile for this writer');
    counter += 1;
    const response = await http.request({
      path: `/v1/profiles/${profile.id}`,
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/merge-patch+json',
        'if-match': profile.etag,
      },
      body: JSON.stringify({ name: `bench ${counter}` }),
    });
    await response.body.dump();
    if (response.statusCode !== 200) throw new Error(`PATCH answered ${response.statusCode}`);
    profile.etag = String(response.headers.etag ?? '');
  });
}

/** Runs `write` in a closed loop by one client per profile of `ids`, numbering the edits across clients. */
function writersLoop(
  ids: string[],
  seconds: number,
  write: (id: string, edit: number) => Promise<void>,
): Promise<LoopFigures> {
  let edits = 0;
  return closedLoop(ids.length, seconds, async (worker) => {
    const id = ids[worker];
    if (id === undefined) throw new Error('no profile for this writer');
    edits += 1;
    await write(id, edits);
  });
}

/**
 * The baseline for a PATCH, issued directly: the versioned write as one transaction under the row
 * lock (lock, update, enqueue, commit).
 */
function patchDirectly(pool: pg.Pool, orgId: string, ids: string[], seconds: number): Promise<LoopFigures> {
  return writersLoop(ids, seconds, async (id, edit) => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const found = await client.query<{ version: number }>(
        `SELECT ${PROFILE_COLUMNS} FROM profiles WHERE org_id = $1 AND id = $2 AND tombstoned_at IS NULL FOR UPDATE`,
        [orgId, id],
      );
      const row = found.rows[0];
      if (row === undefined) throw new Error('profile gone');
      await client.query(
        `UPDATE profiles SET name = $3, version = $4, updated_at = now()
         WHERE org_id = $1 AND id = $2 AND tombstoned_at IS NULL`,
        [orgId, id, `direct ${edit}`, row.version + 1],
      );
      await client.query('INSERT INTO outbox (subject, payload) VALUES ($1, $2)', [
        `profiles.${id}`,
        JSON.stringify({ ...row, version: row.version + 1 }),
      ]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  });
}

/**
 * The statements the API issues for one PATCH, issued directly and one writer's at a time (the API coalesces
 * concurrent writers' commits): the profile read with its linked IPs (the edge document's other part), and the
 * conditional UPDATE with its outbox INSERT in one statement.
 */
function patchStatementsDirectly(
  pool: pg.Pool,
  orgId: string,
  ids: string[],
  seconds: number,
): Promise<LoopFigures> {
  return writersLoop(ids, seconds, async (id, edit) => {
    const found = await pool.query<{ version: number }>(
      `SELECT ${PROFILE_COLUMNS},
         ARRAY(SELECT ip FROM linked_ips l WHERE l.profile_id = p.id AND l.ip IS NOT NULL ORDER BY l.ip COLLATE "C")
           AS linked_ips
       FROM profiles p WHERE org_id = $1 AND id = $2 AND tombstoned_at IS NULL`,
      [orgId, id],
    );
    const row = found.rows[0];
    if (row === undefined) throw new Error('profile gone');
    const saved = await pool.query(
      `WITH saved AS (
         UPDATE profiles SET name = $3, version = $4, updated_at = now()
         WHERE org_id = $1 AND id = $2 AND version = $4::integer - 1 AND tombstoned_at IS NULL RETURNING id
       )
       INSERT INTO outbox (subject, payload) SELECT $5::text, $6::jsonb FROM saved`,
      [
        orgId,
        id,
        `direct ${edit}`,
        row.version + 1,
        `profiles.${id}`,
        JSON.stringify({ ...row, version: row.version + 1 }),
      ],
    );
    if (saved.rowCount !== 1) throw new Error('the profile moved on');
  });
}

/** The profile read the API runs for a GET, issued directly by CONNECTIONS clients. */
async function getDirectly(pool: pg.Pool, orgId: string, id: string): Promise<LoopFigures> {
  return closedLoop(CONNECTIONS, SECONDS, async () => {
    const result = await pool.query(
      `SELECT ${PROFILE_COLUMNS} FROM profiles WHERE org_id = $1 AND id = $2 AND tombstoned_at IS NULL`,
      [orgId, id],
    );
    if (result.rowCount !== 1) throw new Error('profile not found');
  });
}

/**
 * Runs `first` and `second` in turns, ROUNDS times each for SECONDS / ROUNDS, and sums each side's rounds: this
 * virtual machine's speed drifts within seconds, and two back-to-back runs compared as a ratio would measure
 * the drift. Requests per second and CPU per request are over all rounds; p50 and p99 the worst round's.
 */
async function inTurns(
  first: (seconds: number) => Promise<Figures>,
  second: (seconds: number) => Promise<Figures>,
): Promise<[Figures, Figures]> {
  const rounds: [Figures[], Figures[]] = [[], []];
  for (let round = 0; round < ROUNDS; round += 1) {
    rounds[0].push(await first(Math.max(1, Math.round(SECONDS / ROUNDS))));
    rounds[1].push(await second(Math.max(1, Math.round(SECONDS / ROUNDS))));
  }
  return [combined(rounds[0]), combined(rounds[1])];
}

function combined(rounds: Figures[]): Figures {
  const total = rounds.reduce((sum, round) => sum + round.total, 0);
  const seconds = rounds.reduce((sum, round) => sum + round.total / Math.max(1, round.requestsPerSecond), 0);
  const cpu = rounds.every((round) => round.cpuPerRequest !== undefined)
    ? rounds.reduce((sum, round) => sum + (round.cpuPerRequest ?? 0) * round.total, 0) / Math.max(1, total)
    : undefined;
  return {
    requestsPerSecond: total / Math.max(1e-9, seconds),
    p50: Math.max(...rounds.map((round) => round.p50)),
    p99: Math.max(...rounds.map((round) => round.p99)),
    non2xx: rounds.reduce((sum, round) => sum + round.non2xx, 0),
    total,
    ...(cpu === undefined ? {} : { cpuPerRequest: cpu }),
  };
}

const fixed = (value: number, digits = 0) => value.toFixed(digits);

/** The server's CPU time per request, which hardly depends on what else the machine runs. */
const cpuColumn = (microseconds: number | undefined) =>
  microseconds === undefined ? '' : `   server CPU ${fixed(microseconds).padStart(4)} µs/req`;

function autocannonRow(name: string, figures: Figures): string {
  const errors = figures.non2xx > 0 ? `   ${figures.non2xx} non-2xx!` : '';
  return `${name.padEnd(44)} ${fixed(figures.requestsPerSecond).padStart(7)} req/s   p50 ${figures.p50} ms   p99 ${figures.p99} ms${cpuColumn(figures.cpuPerRequest)}${errors}`;
}

function loopRow(name: string, figures: LoopFigures, unit: string, cpuPerRequest?: number): string {
  const errors = figures.failures > 0 ? `   ${figures.failures} failed!` : '';
  return `${name.padEnd(44)} ${fixed(figures.perSecond).padStart(7)} ${unit}   p50 ${fixed(figures.p50, 1)} ms   p99 ${fixed(figures.p99, 1)} ms${cpuColumn(cpuPerRequest)}${errors}`;
}

/** `run`, with the server's CPU time per step (µs) when its pid is known. */
async function withServerCpu(
  serverPid: number | undefined,
  run: () => Promise<LoopFigures>,
): Promise<{ figures: LoopFigures; cpuPerRequest?: number }> {
  const before = serverPid === undefined ? 0 : cpuMilliseconds(serverPid);
  const figures = await run();
  if (serverPid === undefined) return { figures };
  const spent = cpuMilliseconds(serverPid) - before;
  return { figures, cpuPerRequest: (spent * 1000) / Math.max(1, figures.total) };
}

async function main(): Promise<void> {
  const unavailable = await postgresServerUnavailable();
  if (unavailable !== undefined) {
    process.stdout.write(`profiles on the PostgreSQL server: skipped, ${unavailable}\n`);
    return;
  }
  const stale = staleBuilds();
  if (stale.length > 0) {
    process.stderr.write(`bench: building (${stale.join(', ')} older than the sources)\n`);
    await build();
  }
  const database = await createScratchDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-profiles-'));
  const pool = new pg.Pool({ connectionString: database.url, max: Math.max(WRITERS, CONNECTIONS) });
  // An idle client still open when the scratch database is dropped gets 57P01; the figures are printed by then.
  pool.on('error', () => undefined);
  let server: ChildProcess | undefined;
  try {
    const started = await startServer(dataDir, database.url);
    server = started.server;
    const { url } = started;
    const account = await createBenchAccount(url, dataDir, ['profiles:read', 'profiles:write']);
    const writers: { id: string; etag: string }[] = [];
    for (let index = 0; index < WRITERS; index += 1)
      writers.push(await createProfile(url, account.token, `writer ${index}`));
    const reader = await createProfile(url, account.token, 'reader');
    const orgId = (
      await pool.query<{ org_id: string }>('SELECT org_id FROM profiles WHERE id = $1', [reader.id])
    ).rows[0]?.org_id;
    if (orgId === undefined) throw new Error('the profile is not in the database');

    const serverPid = server.pid;
    const auth = { authorization: `Bearer ${account.token}` };
    const options = (headers: Record<string, string>, seconds: number) => ({
      seconds,
      connections: CONNECTIONS,
      headers,
      ...(serverPid === undefined ? {} : { serverPid }),
    });
    const loadBefore = loadavg()[0] ?? 0;
    // A short run of each first, so that every path is measured with its code optimised.
    await load(`${url}/v1/meta`, options({}, 1));
    await load(`${url}/v1/profiles/${reader.id}`, options(auth, 1));
    const [meta, get] = await inTurns(
      (seconds) => load(`${url}/v1/meta`, options({}, seconds)),
      (seconds) => load(`${url}/v1/profiles/${reader.id}`, options(auth, seconds)),
    );
    const getSql = await getDirectly(pool, orgId, reader.id);
    const http = new HttpPool(url, { connections: WRITERS });
    const writerIds = writers.map((writer) => writer.id);
    await patchThroughApi(http, account.token, writers, 1);
    const { figures: patch, cpuPerRequest: patchCpu } = await withServerCpu(serverPid, () =>
      patchThroughApi(http, account.token, writers, SECONDS),
    );
    await http.close();
    await patchDirectly(pool, orgId, writerIds, 1);
    const patchSql = await patchDirectly(pool, orgId, writerIds, SECONDS);
    await patchStatementsDirectly(pool, orgId, writerIds, 1);
    const patchStatements = await patchStatementsDirectly(pool, orgId, writerIds, SECONDS);

    process.stdout.write(
      [
        `profiles on the PostgreSQL server (${cpus().length} cores, load average ${fixed(loadBefore, 2)} before, ${fixed(loadavg()[0] ?? 0, 2)} after; the built server, ${SECONDS} s per run)`,
        autocannonRow(`GET /v1/meta (${CONNECTIONS} connections)`, meta),
        autocannonRow(`GET /v1/profiles/{id}, API token`, get),
        loopRow('the same SELECT directly with pg', getSql, 'q/s  '),
        loopRow(`PATCH /v1/profiles/{id} If-Match (${WRITERS} writers)`, patch, 'req/s', patchCpu),
        loopRow('the locked transaction directly with pg', patchSql, 'tx/s '),
        loopRow("the API's own statements directly with pg", patchStatements, 'w/s  '),
        `GET profile / direct SELECT:   ${fixed(get.requestsPerSecond / Math.max(1, getSql.perSecond), 2)} (target ≥ 1.00)`,
        `GET profile / GET meta:        ${fixed(get.requestsPerSecond / Math.max(1, meta.requestsPerSecond), 2)} (for reference: a static answer)`,
        `PATCH / direct transaction:    ${fixed(patch.perSecond / Math.max(1, patchSql.perSecond), 2)} (target ≥ 0.50)`,
        `PATCH / its statements direct: ${fixed(patch.perSecond / Math.max(1, patchStatements.perSecond), 2)} (for comparison: the same SQL, one writer's at a time)`,
        '',
      ].join('\n'),
    );
  } finally {
    if (server !== undefined) {
      server.kill('SIGTERM');
      await exited(server);
    }
    await pool.end();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
