import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ARGON2_OPTIONS, Argon2PasswordHasher } from '@svc/adapters';
import {
  createScratchDatabase,
  postgresServerUnavailable,
} from '../../packages/adapters/tests/support/postgres-server.js';
import { createBenchAccount } from './bench-account.js';
import {
  build,
  exited,
  type Figures,
  firstAnswer,
  load,
  ROOT,
  samplePeakRss,
  staleBuilds,
  treeRssMegabytes,
  waitForListening,
} from './bench-processes.js';
import { startClickHouseStub } from './clickhouse-stub.js';

/**
 * `npm run bench`. Starts `svc serve` on the embedded default and prints, with the issue's targets:
 * - start to first answer and the RSS of the server's whole process tree (peak while starting, idle 2 s
 *   after the first answer, after the load), for a first start on an empty data dir, a restart on it, the
 *   `npm start` form (tsx, from sources), and the server form with DATABASE_URL and CLICKHOUSE_URL;
 * - GET /v1/meta through the full stack next to a bare express 5 app and a bare node:http server sending the
 *   same bytes, and GET /v1/auth/me with an API token in the same run;
 * - argon2id hashes/s in this process and POST /v1/auth/login logins/s.
 * The server runs from the built output (`npm run build`, redone here when the sources are newer), as a
 * deployment runs it. autocannon runs in its own process on 127.0.0.1 for a bounded time.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const LOGIN_SECONDS = Number(process.env.BENCH_LOGIN_SECONDS ?? 4);
const IDLE_MS = 2000;
const TSX = ['--conditions=source', '--import', 'tsx'];

/** The settings every bench server gets: the embedded default unless `extra` says otherwise. */
function serverEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SVC_ENV: 'development',
    SVC_LOG_LEVEL: 'warn',
    SVC_RATE_LIMIT_PER_MINUTE: '100000000',
    ...extra,
  };
  for (const name of ['DATABASE_URL', 'CLICKHOUSE_URL', 'NATS_URL', 'SMTP_URL'])
    if (!(name in extra)) delete env[name];
  return env;
}

interface Started {
  server: ChildProcess;
  url: string;
  startMs: number;
  peakRss: number;
  idleRss: number;
}

/** Starts `svc serve`, times the first answer, samples the tree's RSS while starting and once idle. */
async function startSvc(
  form: 'built' | 'sources',
  dataDir: string,
  extra: Record<string, string> = {},
): Promise<Started> {
  const entry =
    form === 'built'
      ? [join(ROOT, 'packages/cli/dist/bin.js')]
      : [...TSX, join(ROOT, 'packages/cli/src/bin.ts')];
  const started = performance.now();
  const server = spawn(process.execPath, [...entry, 'serve', '--port', '0', '--data-dir', dataDir], {
    env: serverEnv(extra),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const peak = samplePeakRss(server.pid ?? 0);
  const url = await waitForListening(server);
  const startMs = await firstAnswer(url, started);
  const peakRss = peak.stop();
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  return { server, url, startMs, peakRss, idleRss: treeRssMegabytes(server.pid ?? 0) };
}

async function stopSvc(started: Started): Promise<void> {
  started.server.kill('SIGTERM');
  await exited(started.server);
}

/** argon2id hashes/s with `inFlight` hashes running at once, for about `ms` milliseconds. */
async function hashesPerSecond(inFlight: number, ms: number): Promise<number> {
  const hasher = new Argon2PasswordHasher();
  const started = performance.now();
  let done = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() - started < ms) {
        await hasher.hash('bench password of some length');
        done += 1;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

/** Measures the server form with DATABASE_URL and CLICKHOUSE_URL, when a PostgreSQL server answers. */
async function serverForm(): Promise<string> {
  const unavailable = await postgresServerUnavailable();
  if (unavailable !== undefined) return `skipped: ${unavailable}`;
  const database = await createScratchDatabase();
  const clickhouse = await startClickHouseStub();
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-servers-'));
  try {
    const started = await startSvc('built', dataDir, {
      DATABASE_URL: database.url,
      CLICKHOUSE_URL: clickhouse.url,
    });
    await stopSvc(started);
    return `start to first answer ${ms(started.startMs)}   idle ${mb(started.idleRss)} (target < 120 MB)`;
  } finally {
    await clickhouse.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const ms = (value: number) => `${value.toFixed(0).padStart(5)} ms`;
const mb = (value: number) => `${value.toFixed(0).padStart(4)} MB`;
const ratio = (a: Figures, b: Figures) => (a.requestsPerSecond / b.requestsPerSecond).toFixed(2);
const row = (name: string, figures: Figures) =>
  `${name.padEnd(30)} ${figures.requestsPerSecond.toFixed(0).padStart(8)} req/s   p50 ${String(figures.p50).padStart(3)} ms   p99 ${String(figures.p99).padStart(3)} ms${figures.non2xx > 0 ? `   ${figures.non2xx} non-2xx!` : ''}`;

async function main(): Promise<void> {
  const stale = staleBuilds();
  if (stale.length > 0) {
    process.stderr.write(`bench: building (${stale.join(', ')} older than the sources)\n`);
    await build();
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const children: ChildProcess[] = [];
  try {
    const first = await startSvc('built', dataDir);
    await stopSvc(first);
    const fromSources = await startSvc('sources', dataDir);
    await stopSvc(fromSources);
    const svc = await startSvc('built', dataDir);
    children.push(svc.server);
    const servers = await serverForm();

    const account = await createBenchAccount(svc.url, dataDir);
    const body = await (await fetch(`${svc.url}/v1/meta`)).text();
    const baselines: Record<string, string> = {};
    for (const kind of ['express', 'node-http']) {
      const child = spawn(process.execPath, [...TSX, join(ROOT, 'test/bench/bare-servers.ts'), kind, body], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      children.push(child);
      baselines[kind] = await waitForListening(child);
    }
    const bearer = { authorization: `Bearer ${account.token}` };
    const targets = {
      meta: `${svc.url}/v1/meta`,
      me: `${svc.url}/v1/auth/me`,
      express: `${baselines.express}/v1/meta`,
      node: `${baselines['node-http']}/v1/meta`,
    };
    const options = { seconds: SECONDS, connections: CONNECTIONS };
    // A short run each first, so that every target is measured with its code optimised.
    for (const [name, url] of Object.entries(targets))
      await load(url, {
        seconds: 1,
        connections: CONNECTIONS,
        ...(name === 'me' ? { headers: bearer } : {}),
      });
    const meta = await load(targets.meta, options);
    const me = await load(targets.me, { ...options, headers: bearer });
    const bareExpress = await load(targets.express, options);
    const bareNode = await load(targets.node, options);

    const hashOne = await hashesPerSecond(1, 2000);
    const hashCores = await hashesPerSecond(cpus().length, 2000);
    const logins = await load(`${svc.url}/v1/auth/login`, {
      seconds: LOGIN_SECONDS,
      connections: CONNECTIONS,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: account.email, password: account.password }),
    });
    const afterLoad = treeRssMegabytes(svc.server.pid ?? 0);

    const argon2 = `argon2id m=${ARGON2_OPTIONS.memoryCost} KiB t=${ARGON2_OPTIONS.timeCost} p=${ARGON2_OPTIONS.parallelism}`;
    process.stdout.write(
      [
        `svc bench on ${cpus().length} cores: the built server (packages/cli/dist/bin.js serve) on the embedded default`,
        '',
        'start and memory (RSS of the server and every process it started)',
        `first start, empty data dir (initdb) start to first answer ${ms(first.startMs)}   peak ${mb(first.peakRss)}   idle ${mb(first.idleRss)}`,
        `restart on that data dir             start to first answer ${ms(svc.startMs)}   peak ${mb(svc.peakRss)}   idle ${mb(svc.idleRss)}`,
        `npm start form (tsx, sources)        start to first answer ${ms(fromSources.startMs)}   peak ${mb(fromSources.peakRss)}   idle ${mb(fromSources.idleRss)}`,
        `DATABASE_URL + CLICKHOUSE_URL (local PostgreSQL, ClickHouse HTTP stub) ${servers}`,
        `idle RSS (embedded default): ${first.idleRss.toFixed(0)} MB first start, ${svc.idleRss.toFixed(0)} MB restart (target < 350 MB); ${afterLoad.toFixed(0)} MB after the load below`,
        `start to first answer: ${first.startMs.toFixed(0)} ms first start, ${svc.startMs.toFixed(0)} ms restart (target < 3000 ms)`,
        '',
        `throughput: ${CONNECTIONS} connections, ${SECONDS} s each, autocannon in its own process`,
        row('GET /v1/meta full stack (svc)', meta),
        row('GET /v1/auth/me, API token', me),
        row('GET /v1/meta bare express 5', bareExpress),
        row('GET /v1/meta bare node:http', bareNode),
        `full stack / bare express: ${ratio(meta, bareExpress)} (target ≥ 0.80)`,
        `/v1/auth/me token / /v1/meta: ${ratio(me, meta)} (target ≥ 0.80)`,
        `bare express / node:http:  ${ratio(bareExpress, bareNode)}`,
        `full stack / node:http:    ${ratio(meta, bareNode)}`,
        '',
        `passwords: ${argon2}`,
        `hashes in this process: ${hashOne.toFixed(1)}/s one at a time (${(1000 / hashOne).toFixed(0)} ms each), ${hashCores.toFixed(1)}/s with ${cpus().length} at once`,
        `${row(`POST /v1/auth/login (${LOGIN_SECONDS} s)`, logins).replace('req/s', 'logins/s')}`,
        '',
      ].join('\n'),
    );
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map(exited));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
