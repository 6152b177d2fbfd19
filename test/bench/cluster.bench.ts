import { cpus } from 'node:os';
import autocannon, { type AutocannonRequest } from 'autocannon';
import { clusterUnavailable } from '../cluster/cluster-engines.js';
import { startTopology, type Topology } from '../cluster/cluster-topology.js';
import { createBenchAccount } from './bench-account.js';
import { build, cpuMilliseconds, staleBuilds } from './bench-processes.js';
import { type BenchProfile, createProfile, currentEtag, ifMatchPatch } from './bench-profiles.js';

/**
 * Part of `npm run bench` (issue 32): `npm run bench -- --only cluster`. The same mix through Caddy (the
 * deploy/ Caddyfile) against one API server and against three, on the topology of test/cluster/ (PostgreSQL
 * primary with a synchronous standby, three NATS nodes), printed side by side with the CPU time per request
 * of the API servers and of Caddy. On a machine of few cores three servers share the cores one had to itself:
 * the figures show the overhead of the topology (balancer hop, synchronous replication, more processes), not
 * a speed-up. BENCH_SECONDS (10) per run, BENCH_CONNECTIONS (16).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARM_UP_SECONDS = 2;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const READ_PROFILES = 10;
const WRITE_PROFILES = 2 * CONNECTIONS;

interface RunFigures {
  servers: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  serverCpuPerRequest: number;
  balancerCpuPerRequest: number;
}

/** The mix: of 12 requests, 7 profile GETs, 2 GET /v1/auth/me, 2 lists, 1 PATCH with If-Match. */
function mix(url: string, token: string, readers: BenchProfile[], free: BenchProfile[]): AutocannonRequest[] {
  const auth = { authorization: `Bearer ${token}` };
  let next = 0;
  const get: AutocannonRequest = {
    method: 'GET',
    setupRequest: (request) => {
      next += 1;
      return { ...request, path: `/v1/profiles/${readers[next % readers.length]?.id}`, headers: auth };
    },
  };
  const me: AutocannonRequest = { method: 'GET', path: '/v1/auth/me', headers: auth };
  const list: AutocannonRequest = { method: 'GET', path: '/v1/profiles?limit=20', headers: auth };
  const patch = ifMatchPatch(url, token, free);
  return [get, get, me, get, list, get, patch, get, me, get, list, get];
}

/** CPU time in ms of the topology's API servers and of Caddy. */
function cpuOf(topology: Topology): { servers: number; balancer: number } {
  const servers = topology.servers.reduce(
    (sum, server) => sum + (server.child?.pid === undefined ? 0 : cpuMilliseconds(server.child.pid)),
    0,
  );
  return {
    servers,
    balancer: topology.balancerPid === undefined ? 0 : cpuMilliseconds(topology.balancerPid),
  };
}

async function measure(count: number): Promise<RunFigures> {
  const topology = await startTopology(count);
  try {
    const { url } = topology;
    const account = await createBenchAccount(url, topology.dataDir, [
      'profiles:read',
      'profiles:write',
      'account:read',
    ]);
    const readers: BenchProfile[] = [];
    for (let index = 0; index < READ_PROFILES; index += 1)
      readers.push(await createProfile(url, account.token, `reader ${index}`));
    const writers: BenchProfile[] = [];
    for (let index = 0; index < WRITE_PROFILES; index += 1)
      writers.push(await createProfile(url, account.token, `writer ${index}`));
    const freeWriters = async () => {
      for (const profile of writers) profile.etag = await currentEtag(url, account.token, profile.id);
      return [...writers];
    };
    await autocannon({
      url,
      connections: CONNECTIONS,
      duration: WARM_UP_SECONDS,
      requests: mix(url, account.token, readers, await freeWriters()),
    });
    const free = await freeWriters();
    const before = cpuOf(topology);
    const result = await autocannon({
      url,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: mix(url, account.token, readers, free),
    });
    const after = cpuOf(topology);
    const total = result.requests.total;
    return {
      servers: count,
      requestsPerSecond: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      total,
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
      serverCpuPerRequest: ((after.servers - before.servers) * 1000) / Math.max(1, total),
      balancerCpuPerRequest: ((after.balancer - before.balancer) * 1000) / Math.max(1, total),
    };
  } finally {
    await topology.destroy();
  }
}

async function main(): Promise<void> {
  const unavailable = clusterUnavailable();
  if (unavailable !== undefined) {
    process.stdout.write(`cluster: skipped, ${unavailable}\n`);
    return;
  }
  const stale = staleBuilds();
  if (stale.length > 0) {
    process.stderr.write(`bench: building (${stale.join(', ')} older than the sources)\n`);
    await build();
  }
  const runs: RunFigures[] = [];
  for (const count of [1, 3]) runs.push(await measure(count));
  const column = (run: RunFigures) => [
    `${run.requestsPerSecond.toFixed(0)} req/s`,
    `p50 ${run.p50} ms, p99 ${run.p99} ms`,
    `${run.serverCpuPerRequest.toFixed(0)} µs`,
    `${run.balancerCpuPerRequest.toFixed(0)} µs`,
    `${run.total} (${run.non2xx} non-2xx, ${run.errors} errors)`,
  ];
  const labels = ['throughput', 'latency', 'API server CPU / request', 'Caddy CPU / request', 'requests'];
  const [one, three] = runs.map(column);
  process.stdout.write(
    [
      `the mix through Caddy (deploy/caddy/Caddyfile) on PostgreSQL with a synchronous standby and three NATS nodes; ` +
        `${cpus().length} cores; ${CONNECTIONS} connections, ${SECONDS} s after ${WARM_UP_SECONDS} s of warm-up each`,
      `${''.padEnd(26)}${'1 API server'.padEnd(30)}3 API servers`,
      ...labels.map(
        (label, index) => `${label.padEnd(26)}${(one?.[index] ?? '').padEnd(30)}${three?.[index] ?? ''}`,
      ),
      cpus().length <= 2
        ? `on ${cpus().length} cores the three servers share what one had: this is the overhead of the topology, not its speed-up`
        : '',
      '',
    ].join('\n'),
  );
  if (runs.some((run) => run.errors > 0 || run.non2xx > 0)) process.exitCode = 1;
}

await main();
