import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ARGON2_OPTIONS, Argon2PasswordHasher } from '@svc/adapters';
import { createScratchDatabase, postgresServerUnavailable } from '@svc/testing/postgres';
import { createBenchAccount } from './bench-account.js';
import {
  build,
  cpuMilliseconds,
  exited,
  type Figures,
  firstAnswer,
  type LoadOptions,
  load,
  mainThreadCpuMilliseconds,
  ROOT,
  samplePeakRss,
  staleBuilds,
  treeRssMegabytes,
  waitForListening,
} from './bench-processes.js';
import { startClickHouseStub } from './clickhouse-stub.js';

/**
 * `npm run bench`. Starts `svc serve` on the embedded default and prints, with the issue's targets:
 * - start to first answer (wall and CPU time) and the RSS of the server's whole process tree (peak while
 *   starting, idle 2 s after the first answer, after the load), for a first start on an empty data dir, a
 *   restart on it, the `npm start` form (tsx, from sources), and with DATABASE_URL and CLICKHOUSE_URL;
 * - GET /v1/meta through the full stack next to a bare express 5 app and a bare node:http server sending the
 *   same bytes, and GET /v1/auth/me with an API token in the same run, with the server's CPU per request;
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
  /** CPU time of the server and the children it waited for (initdb, chdb migrations) until the first answer. */
  startCpuMs: number;
  /** Of which the server's main thread. */
  startMainCpuMs: number;
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
  const startCpuMs = cpuMilliseconds(server.pid ?? 0);
  const startMainCpuMs = mainThreadCpuMilliseconds(server.pid ?? 0);
  const peakRss = peak.stop();
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const idleRss = treeRssMegabytes(server.pid ?? 0);
  return { server, url, startMs, startCpuMs, startMainCpuMs, peakRss, idleRss };
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

const ms = (value: number) => `${value.toFixed(0).padStart(5)} ms`;
const mb = (value: number) => `${value.toFixed(0).padStart(4)} MB`;
const ratio = (a: Figures, b: Figures) => (a.requestsPerSecond / b.requestsPerSecond).toFixed(2);
/** How many of `a`'s requests the server CPU of one of `b`'s pays for: the ratio load does not skew. */
const cpuRatio = (a: Figures, b: Figures) => ((b.cpuPerRequest ?? 0) / (a.cpuPerRequest ?? 1)).toFixed(2);
const row = (name: string, figures: Figures, unit = 'req/s') =>
  `${name.padEnd(30)} ${figures.requestsPerSecond.toFixed(0).padStart(8)} ${unit}   p50 ${String(figures.p50).padStart(4)} ms   p99 ${String(figures.p99).padStart(4)} ms   server CPU ${(figures.cpuPerRequest ?? 0).toFixed(0).padStart(5)} µs/req${figures.non2xx > 0 ? `   ${figures.non2xx} non-2xx!` : ''}`;
const startRow = (name: string, started: Started) =>
  `${name.padEnd(37)} first answer ${ms(started.startMs)} (CPU ${ms(started.startCpuMs)}, main thread ${ms(started.startMainCpuMs)})   peak ${mb(started.peakRss)}   idle ${mb(started.idleRss)}`;
const load1 = () => (loadavg()[0] ?? 0).toFixed(1);

/** The server form with DATABASE_URL and CLICKHOUSE_URL, when a PostgreSQL server answers. */
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
    return `first answer ${ms(started.startMs)} (CPU ${ms(started.startCpuMs)}, main thread ${ms(started.startMainCpuMs)})   idle ${mb(started.idleRss)} (target < 120 MB)`;
  } finally {
    await clickhouse.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Starts the two baselines, each in its own process, sending `body` as the full stack does. */
async function startBaselines(body: string, children: ChildProcess[]): Promise<ChildProcess[]> {
  const baselines: ChildProcess[] = [];
  for (const kind of ['express', 'node-http']) {
    const child = spawn(process.execPath, [...TSX, join(ROOT, 'test/bench/bare-servers.ts'), kind, body], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    baselines.push(child);
  }
  return baselines;
}

async function main(): Promise<void> {
  const stale = staleBuilds();
  if (stale.length > 0) {
    process.stderr.write(`bench: building (${stale.join(', ')} older than the sources)\n`);
    await build();
  }
  const loadAtStart = load1();
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
    const [express, node] = await startBaselines(body, children);
    const targets: {
      name: string;
      url: string;
      pid: number | undefined;
      headers?: Record<string, string>;
    }[] = [
      { name: 'meta', url: `${svc.url}/v1/meta`, pid: svc.server.pid },
      {
        name: 'me',
        url: `${svc.url}/v1/auth/me`,
        pid: svc.server.pid,
        headers: { authorization: `Bearer ${account.token}` },
      },
      {
        name: 'express',
        url: `${express ? await waitForListening(express) : ''}/v1/meta`,
        pid: express?.pid,
      },
      { name: 'node', url: `${node ? await waitForListening(node) : ''}/v1/meta`, pid: node?.pid },
    ];
    const options = (target: (typeof targets)[number], seconds: number): LoadOptions => ({
      seconds,
      connections: CONNECTIONS,
      ...(target.headers === undefined ? {} : { headers: target.headers }),
      ...(target.pid === undefined ? {} : { serverPid: target.pid }),
    });
    // A short run each first, so that every target is measured with its code optimised.
    for (const target of targets) await load(target.url, options(target, 1));
    const figures: Figures[] = [];
    for (const target of targets) figures.push(await load(target.url, options(target, SECONDS)));
    const [meta, me, bareExpress, bareNode] = figures as [Figures, Figures, Figures, Figures];

    const afterRequests = treeRssMegabytes(svc.server.pid ?? 0);
    const hashOne = await hashesPerSecond(1, 2000);
    const hashCores = await hashesPerSecond(cpus().length, 2000);
    const logins = await load(`${svc.url}/v1/auth/login`, {
      seconds: LOGIN_SECONDS,
      connections: CONNECTIONS,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: account.email, password: account.password }),
      ...(svc.server.pid === undefined ? {} : { serverPid: svc.server.pid }),
    });
    const afterLogins = treeRssMegabytes(svc.server.pid ?? 0);

    const argon2 = `argon2id m=${ARGON2_OPTIONS.memoryCost} KiB t=${ARGON2_OPTIONS.timeCost} p=${ARGON2_OPTIONS.parallelism}`;
    process.stdout.write(
      [
        `svc bench on ${cpus().length} cores, load average ${loadAtStart} at start and ${load1()} at the end (wall times and`,
        'req/s move with it, CPU times much less). The server is the built output: packages/cli/dist/bin.js serve.',
        '',
        'start and memory on the embedded default (RSS of the server and every process it started)',
        startRow('first start, empty data dir (initdb)', first),
        startRow('restart on that data dir', svc),
        startRow('npm start form (tsx, sources), restart', fromSources),
        `with DATABASE_URL + CLICKHOUSE_URL (local PostgreSQL, ClickHouse HTTP stub): ${servers}`,
        `idle RSS (embedded default): ${first.idleRss.toFixed(0)} MB first start, ${svc.idleRss.toFixed(0)} MB restart (target < 350 MB); after the load below ${afterRequests.toFixed(0)} MB, and ${afterLogins.toFixed(0)} MB once argon2 has run on 4 threads`,
        `start to first answer: ${first.startMs.toFixed(0)} ms first start, ${svc.startMs.toFixed(0)} ms restart (target < 3000 ms)`,
        '',
        `throughput: ${CONNECTIONS} connections, ${SECONDS} s each, autocannon in its own process`,
        row('GET /v1/meta full stack (svc)', meta),
        row('GET /v1/auth/me, API token', me),
        row('GET /v1/meta bare express 5', bareExpress),
        row('GET /v1/meta bare node:http', bareNode),
        `full stack / bare express:    ${ratio(meta, bareExpress)} (target ≥ 0.80), by server CPU per request ${cpuRatio(meta, bareExpress)}`,
        `/v1/auth/me token / /v1/meta: ${ratio(me, meta)} (target ≥ 0.80), by server CPU per request ${cpuRatio(me, meta)}`,
        `bare express / node:http:     ${ratio(bareExpress, bareNode)}, by server CPU per request ${cpuRatio(bareExpress, bareNode)}`,
        `full stack / node:http:       ${ratio(meta, bareNode)}, by server CPU per request ${cpuRatio(meta, bareNode)}`,
        '',
        `passwords: ${argon2}`,
        `hashes in this process: ${hashOne.toFixed(1)}/s one at a time (${(1000 / hashOne).toFixed(0)} ms each), ${hashCores.toFixed(1)}/s with ${cpus().length} at once`,
        row(`POST /v1/auth/login (${LOGIN_SECONDS} s)`, logins, 'logins/s'),
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
