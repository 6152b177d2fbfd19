import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase, postgresServerUnavailable } from '@svc/testing/postgres';
import autocannon, { type AutocannonRequest } from 'autocannon';
import { runSvc } from '../support/cli-process.js';
import { createBenchAccount } from './bench-account.js';
import { build, exited, ROOT, staleBuilds, waitForListening } from './bench-processes.js';
import { type BenchProfile, createProfile, currentEtag, ifMatchPatch } from './bench-profiles.js';

/**
 * Part of `npm run bench` (issue 10, "Performance targets for the mix"): `npm run bench -- --only mix`
 * (or `--mix`), `--long` for 10 minutes. One API server process on 127.0.0.1 with the PostgreSQL server and
 * the embedded chdb, under a read-heavy mix through autocannon (in this process) from ORGANISATIONS accounts
 * (each its own organisation, as on a real server; the query budget and the 4 concurrent log queries are per
 * organisation): profile GETs and lists, token-authenticated GET /v1/auth/me, PATCHes with If-Match (a PATCH
 * takes a profile no other PATCH holds and carries its ETag forward), log queries answered by chdb, and 4 SSE
 * log streams of one more account held open throughout. Each read profile first gets a day of a household's
 * queries from `svc simulate`, so that log queries read rows as they would in use. Prints throughput, p50/p99,
 * answers by status per kind (429 too_many_queries is documented), and the server's RSS sampled every second
 * (with the V8 heap at the end), against the targets: 2,000 req/s, p99 under 50 ms, RSS flat over the last
 * half (under 500 MB with chdb in the process).
 * It stops by itself after the warm-up and the run (BENCH_SECONDS overrides the run's length).
 */
const args = process.argv.slice(2);
const SECONDS = Number(process.env.BENCH_SECONDS ?? (args.includes('--long') ? 600 : 60));
const WARM_UP_SECONDS = 5;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ORGANISATIONS = 4;
const READ_PROFILES = 5;
/** Twice the connections: a profile whose ETag is being re-read after a failed PATCH is out of the pool. */
const WRITE_PROFILES = 2 * CONNECTIONS;
const STREAMS = 4;
/** Queries each read profile logged over the last day (a household's day), written by `svc simulate`. */
const QUERIES_PER_DAY = 20_000;
const SCOPES = ['profiles:read', 'profiles:write', 'account:read', 'logs:read'];
const TARGET_RPS = 2_000;
const TARGET_P99_MS = 50;
const TARGET_RSS_MB = 500;
/** Extra node options of the server (`BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/p'`), split on spaces. */
const SERVER_NODE_ARGS = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');

/** One organisation of the mix: its token and the profiles it reads. */
interface Organisation {
  token: string;
  readers: BenchProfile[];
}

async function startServer(dataDir: string, databaseUrl: string): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SVC_ENV: 'development',
    SVC_LOG_LEVEL: 'warn',
    SVC_RATE_LIMIT_PER_MINUTE: '100000000',
    DATABASE_URL: databaseUrl,
  };
  for (const name of ['CLICKHOUSE_URL', 'NATS_URL', 'SMTP_URL']) delete env[name];
  // The built server, as a deployment runs it (deploy/Dockerfile): the sources under tsx hold their
  // transformed text and source maps besides, which is no part of the server's own memory.
  return spawn(
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
}

/**
 * Plays the edge for `profileId`: a day of a household's queries, written into the running server's stores by
 * `svc simulate` (handed to the server, which holds the embedded chdb), so that log queries read real rows.
 */
async function simulateDay(dataDir: string, databaseUrl: string, profileId: string): Promise<void> {
  const { code, stderr } = await runSvc(
    [
      'simulate',
      '--profile',
      profileId,
      '--queries',
      String(QUERIES_PER_DAY),
      '--days',
      '1',
      '--data-dir',
      dataDir,
      '--json',
    ],
    { SVC_ENV: 'development', DATABASE_URL: databaseUrl },
  );
  if (code !== 0) throw new Error(`svc simulate ${profileId} exited with ${code}: ${stderr}`);
}

/** The server's resident memory in MB by kind: anonymous (heaps, chdb's allocations) and file-backed (code). */
function residentKinds(pid: number): { anonymous: number; file: number } {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const field = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(rollup)?.[1] ?? 0) / 1024;
  return { anonymous: field('Anonymous'), file: field('Rss') - field('Anonymous') };
}

/** The server process's own resident memory in MB (chdb runs inside it). */
function rssMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Holds an SSE stream open until `signal` aborts: the bytes it received, or why it ended early. */
async function holdStream(
  url: string,
  token: string,
  signal: AbortSignal,
): Promise<{ bytes: number; failure?: string }> {
  let bytes = 0;
  try {
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
      signal,
    });
    if (response.status !== 200 || response.body === null)
      return { bytes, failure: `answered ${response.status}: ${await response.text()}` };
    for await (const chunk of response.body) bytes += (chunk as Uint8Array).byteLength;
    return signal.aborted ? { bytes } : { bytes, failure: 'closed by the server' };
  } catch (error) {
    if (signal.aborted) return { bytes };
    return { bytes, failure: error instanceof Error ? error.message : String(error) };
  }
}

/** The server's V8 heap and external memory in MB, from its Prometheus metrics. */
async function serverMemory(url: string): Promise<{ heapUsed: number; heapTotal: number; external: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const megabytes = (name: string) =>
    Math.round(Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN) / 1024 / 1024);
  return {
    heapUsed: megabytes('nodejs_heap_size_used_bytes'),
    heapTotal: megabytes('nodejs_heap_size_total_bytes'),
    external: megabytes('nodejs_external_memory_bytes'),
  };
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

/** Answers by request kind and status (with the problem code for errors), and each kind's latencies. */
class Tally {
  readonly counts = new Map<string, Map<string, number>>();
  readonly latencies = new Map<string, number[]>();
  /** Every answer's latency by the minute of the run it came in (whether the run drifts, or the machine). */
  readonly byMinute: number[][] = [];
  private readonly started = performance.now();

  record(kind: string, status: number, body: string, ms: number): void {
    const minute = Math.floor((performance.now() - this.started) / 60_000);
    const ofMinute = this.byMinute[minute] ?? [];
    ofMinute.push(ms);
    this.byMinute[minute] = ofMinute;
    const code = status >= 400 ? /"code":"([a-z_]+)"/.exec(body)?.[1] : undefined;
    const key = code === undefined ? String(status) : `${status} ${code}`;
    const byStatus = this.counts.get(kind) ?? new Map<string, number>();
    byStatus.set(key, (byStatus.get(key) ?? 0) + 1);
    this.counts.set(kind, byStatus);
    const latencies = this.latencies.get(kind) ?? [];
    latencies.push(ms);
    this.latencies.set(kind, latencies);
  }

  /** One line of answers a second, p50 and p99 per minute of the run (runs of two minutes or more). */
  minuteLines(): string[] {
    if (this.byMinute.length < 2) return [];
    const minutes = this.byMinute.map((latencies, minute) => {
      const sorted = [...latencies].sort((a, b) => a - b);
      return `${minute + 1}: ${(latencies.length / 60).toFixed(0)}/s p50 ${percentile(sorted, 0.5).toFixed(0)} p99 ${percentile(sorted, 0.99).toFixed(0)} ms`;
    });
    return [`by minute   ${minutes.join('; ')}`];
  }

  /** Errors other than the documented 429s. */
  unexpected(): number {
    let total = 0;
    for (const byStatus of this.counts.values())
      for (const [key, count] of byStatus) if (!key.startsWith('2') && !key.startsWith('429')) total += count;
    return total;
  }

  lines(): string[] {
    return [...this.counts].map(([kind, byStatus]) => {
      const sorted = [...(this.latencies.get(kind) ?? [])].sort((a, b) => a - b);
      const timing = `p50 ${percentile(sorted, 0.5).toFixed(0)} ms, p99 ${percentile(sorted, 0.99).toFixed(0)} ms`;
      const answers = [...byStatus].map(([key, count]) => `${count} × ${key}`).join(', ');
      return `  ${kind.padEnd(34)} ${timing.padEnd(24)} ${answers}`;
    });
  }
}

/** The mix each connection cycles through: 20 requests, 1 write, 1 log query. */
function mixRequests(
  url: string,
  organisations: Organisation[],
  writer: { token: string; free: BenchProfile[] },
  tally: Tally,
): AutocannonRequest[] {
  let next = 0;
  /** The next organisation's credential and one of its profiles, round robin. */
  const pick = () => {
    next += 1;
    const organisation = organisations[next % organisations.length];
    const profile =
      organisation?.readers[Math.floor(next / organisations.length) % organisation.readers.length];
    return { auth: { authorization: `Bearer ${organisation?.token}` }, id: profile?.id ?? '' };
  };
  // Timed from the moment autocannon prepares the request (one in flight per connection, no pipelining).
  const counted = (kind: string, request: AutocannonRequest): AutocannonRequest => ({
    ...request,
    setupRequest: (prepared, context) => {
      context.sentAt = performance.now();
      return request.setupRequest?.(prepared, context) ?? prepared;
    },
    onResponse: (status, body, context, headers) => {
      tally.record(kind, status, body, performance.now() - Number(context.sentAt));
      request.onResponse?.(status, body, context, headers);
    },
  });
  const getProfile = counted('GET /v1/profiles/{id}', {
    method: 'GET',
    setupRequest: (request) => {
      const { auth, id } = pick();
      return { ...request, path: `/v1/profiles/${id}`, headers: auth };
    },
  });
  const me = counted('GET /v1/auth/me', {
    method: 'GET',
    path: '/v1/auth/me',
    setupRequest: (request) => ({ ...request, headers: pick().auth }),
  });
  const list = counted('GET /v1/profiles?limit=20', {
    method: 'GET',
    path: '/v1/profiles?limit=20',
    setupRequest: (request) => ({ ...request, headers: pick().auth }),
  });
  const logs = counted('GET /v1/profiles/{id}/logs', {
    method: 'GET',
    setupRequest: (request) => {
      const { auth, id } = pick();
      return { ...request, path: `/v1/profiles/${id}/logs?limit=20`, headers: auth };
    },
  });
  const patch = counted('PATCH /v1/profiles/{id} If-Match', ifMatchPatch(url, writer.token, writer.free));
  return [
    ...Array.from({ length: 4 }, () => [getProfile, getProfile, me]).flat(),
    list,
    patch,
    getProfile,
    me,
    logs,
    getProfile,
    list,
    getProfile,
  ];
}

/** Least-squares slope of `samples` (MB per minute). */
function slopePerMinute(samples: { at: number; mb: number }[]): number {
  const n = samples.length;
  if (n < 2) return 0;
  const meanAt = samples.reduce((sum, sample) => sum + sample.at, 0) / n;
  const meanMb = samples.reduce((sum, sample) => sum + sample.mb, 0) / n;
  let numerator = 0;
  let denominator = 0;
  for (const sample of samples) {
    numerator += (sample.at - meanAt) * (sample.mb - meanMb);
    denominator += (sample.at - meanAt) ** 2;
  }
  return denominator === 0 ? 0 : (numerator / denominator) * 60;
}

const uptime = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

async function main(): Promise<void> {
  const unavailable = await postgresServerUnavailable();
  if (unavailable !== undefined) {
    process.stdout.write(`mix on the PostgreSQL server: skipped, ${unavailable}\n`);
    return;
  }
  const stale = staleBuilds();
  if (stale.length > 0) {
    process.stderr.write(`bench: building (${stale.join(', ')} older than the sources)\n`);
    await build();
  }
  const database = await createScratchDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-mix-'));
  const streams = new AbortController();
  let server: ChildProcess | undefined;
  try {
    server = await startServer(dataDir, database.url);
    const url = await waitForListening(server);
    const pid = server.pid;
    if (pid === undefined) throw new Error('the server has no pid');
    const organisations: Organisation[] = [];
    for (let index = 0; index < ORGANISATIONS; index += 1) {
      const account = await createBenchAccount(url, dataDir, SCOPES, `mix${index}@example.test`);
      const readers: BenchProfile[] = [];
      for (let profile = 0; profile < READ_PROFILES; profile += 1)
        readers.push(await createProfile(url, account.token, `reader ${profile}`));
      organisations.push({ token: account.token, readers });
    }
    const filled = performance.now();
    const readers = organisations.flatMap((organisation) => organisation.readers);
    // Two at a time: each is mostly its own start-up.
    for (let index = 0; index < readers.length; index += 2)
      await Promise.all(
        readers.slice(index, index + 2).map((profile) => simulateDay(dataDir, database.url, profile.id)),
      );
    const fillSeconds = (performance.now() - filled) / 1000;
    // The fill's processes have exited; the machine settles before the warm-up.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const writerToken = organisations[0]?.token ?? '';
    const writers: BenchProfile[] = [];
    for (let index = 0; index < WRITE_PROFILES; index += 1)
      writers.push(await createProfile(url, writerToken, `writer ${index}`));
    const streaming = await createBenchAccount(url, dataDir, SCOPES, 'mix-streams@example.test');
    const streamedProfile = await createProfile(url, streaming.token, 'streamed');
    const held = Array.from({ length: STREAMS }, () =>
      holdStream(`${url}/v1/profiles/${streamedProfile.id}/logs/stream`, streaming.token, streams.signal),
    );
    /** Every writer profile free, with its current ETag (a PATCH cut by the end of a run may have committed). */
    const freeWriters = async () => {
      for (const profile of writers) profile.etag = await currentEtag(url, writerToken, profile.id);
      return { token: writerToken, free: [...writers] };
    };

    const warmUp = new Tally();
    await autocannon({
      url,
      connections: CONNECTIONS,
      duration: WARM_UP_SECONDS,
      requests: mixRequests(url, organisations, await freeWriters(), warmUp),
    });
    const tally = new Tally();
    const samples: { at: number; mb: number }[] = [];
    const started = performance.now();
    const sampler = setInterval(() => {
      samples.push({ at: (performance.now() - started) / 1000, mb: rssMegabytes(pid) });
    }, 1_000);
    const loadBefore = uptime();
    const result = await autocannon({
      url,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: mixRequests(url, organisations, await freeWriters(), tally),
    });
    clearInterval(sampler);
    const loadAfter = uptime();
    const memory = await serverMemory(url);
    const kinds = residentKinds(pid);
    streams.abort();
    const streamed = await Promise.all(held);

    const lastHalf = samples.filter((sample) => sample.at >= SECONDS / 2);
    const peak = Math.max(...samples.map((sample) => sample.mb));
    const middle = lastHalf[0]?.mb ?? 0;
    const end = lastHalf[lastHalf.length - 1]?.mb ?? 0;
    const slope = slopePerMinute(lastHalf);
    const failedStreams = streamed.filter((stream) => stream.failure !== undefined);
    const unexpected = tally.unexpected() + result.errors + result.timeouts + failedStreams.length;
    const verdict = (met: boolean) => (met ? 'met' : 'MISSED');
    process.stdout.write(
      [
        `mix on the PostgreSQL server with embedded chdb (${cpus().length} cores; built server; ` +
          `${ORGANISATIONS} organisations, ${CONNECTIONS} connections, ${SECONDS} s after ${WARM_UP_SECONDS} s of warm-up; ${STREAMS} SSE streams open)`,
        `log data    ${QUERIES_PER_DAY.toLocaleString('en-US')} simulated queries over the last day in each of the ${ORGANISATIONS * READ_PROFILES} read profiles (svc simulate, ${fillSeconds.toFixed(1)} s)`,
        `load average (1, 5, 15 min): ${loadBefore} before, ${loadAfter} after — other work on this machine counts`,
        `throughput  ${result.requests.average.toFixed(0)} req/s (target ≥ ${TARGET_RPS}: ${verdict(result.requests.average >= TARGET_RPS)})`,
        `latency     p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms (target p99 < ${TARGET_P99_MS} ms: ${verdict(result.latency.p99 < TARGET_P99_MS)})`,
        `requests    ${result.requests.total}; errors other than 429: ${unexpected} (target 0: ${verdict(unexpected === 0)}); socket errors ${result.errors}, time-outs ${result.timeouts}`,
        ...tally.lines(),
        ...tally.minuteLines(),
        `SSE streams ${streamed.length - failedStreams.length} of ${streamed.length} held open for the whole run ` +
          `(${streamed.reduce((sum, stream) => sum + stream.bytes, 0)} bytes received)` +
          failedStreams.map((stream) => `; one ended early: ${stream.failure}`).join(''),
        `server RSS  peak ${peak.toFixed(0)} MB; last half ${middle.toFixed(0)} → ${end.toFixed(0)} MB, slope ${slope.toFixed(1)} MB/min ` +
          `(target flat and < ${TARGET_RSS_MB} MB with chdb in the process: ${verdict(peak < TARGET_RSS_MB && Math.abs(end - middle) <= Math.max(10, middle * 0.05))})`,
        `            of it at the end: V8 heap ${memory.heapUsed} MB used of ${memory.heapTotal} MB held, ` +
          `${memory.external} MB external (buffers); the rest is chdb, PostgreSQL client and Node's own; ` +
          `${kinds.anonymous.toFixed(0)} MB anonymous, ${kinds.file.toFixed(0)} MB file-backed (code: Node, chdb's library)`,
        '',
      ].join('\n'),
    );
  } finally {
    streams.abort();
    if (server !== undefined) {
      server.kill('SIGTERM');
      await exited(server);
    }
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
