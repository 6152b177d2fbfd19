import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { NodeFilter } from '@svc/node-agent-kit';
import { nodeProfileDocument } from '@svc/testing/node-profile-document';
import {
  DnsResolver,
  Do53Listener,
  FilterInForce,
  QueryLogStore,
} from '../../examples/reference-node/src/index.js';
import {
  queryMessage,
  rcodeOf,
  udpExchange,
} from '../../examples/reference-node/tests/support/dns-client.js';
import { cpuMilliseconds, exited } from './bench-processes.js';
import { seededListManifest } from './filter-fixture.js';

/**
 * Part of `npm run bench` (issue 29, "Performance"): `node --conditions=source --import tsx test/bench/dns.bench.ts`.
 *
 * The reference node's DNS side and unbound, each a process of its own on loopback, are driven by the same
 * `dnsperf` over the same 100,000 names (BENCH_DNS_NAMES), all of which both refuse: the node from a profile
 * document (block mode `refused`, logs on) whose manifest names one compiled list of those names, decided through
 * the kit's NodeFilter and the shared decision function as the node decides, so that it records every query in its memory log as a node does; unbound from `local-zone: "name." refuse` lines, one thread, as an unprivileged process. Queries are
 * plain UDP without EDNS. Each server gets a short warm-up, then they take turns for BENCH_DNS_ROUNDS (2) timed
 * runs of BENCH_DNS_SECONDS (10) each; the best run of each is printed with the ratio node/unbound (target
 * ≥ 0.3), the CPU time each server spent per query (/proc; it moves far less with the machine's load than the
 * rates do) and the load. Skipped, saying so, when dnsperf or unbound is absent.
 */
const THIS_FILE = fileURLToPath(import.meta.url);
const NAMES = Number(process.env.BENCH_DNS_NAMES ?? 100_000);
const SECONDS = Number(process.env.BENCH_DNS_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_DNS_ROUNDS ?? 2);
const WARM_UP_SECONDS = 2;
const RATIO_TARGET = 0.3;
/** `nobody`: unbound drops nothing itself (username ""), so it is started as this user when the bench is root. */
const UNPRIVILEGED = 65_534;
const REFUSED = 5;

/** The i-th benchmark name: varied labels and depths under a few top-level domains, as a blocklist's are. */
function benchName(index: number): string {
  const tlds = ['com', 'net', 'org', 'io', 'info', 'xyz'];
  const words = ['ads', 'track', 'pixel', 'metrics', 'cdn', 'stats', 'beacon', 'promo'];
  const word = words[index % words.length];
  const tld = tlds[index % tlds.length];
  return index % 3 === 0 ? `${word}${index}.example-${index % 97}.${tld}` : `${word}-${index}.${tld}`;
}

function machineLoad(): string {
  const uptime = execFileSync('uptime', { encoding: 'utf8' }).trim();
  return `${uptime} (${cpus().length} cores; load ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')})`;
}

function missingTool(): string | undefined {
  for (const [tool, flag, pkg] of [
    ['dnsperf', '-h', 'dnsperf'],
    ['unbound', '-V', 'unbound'],
  ] as const) {
    if (spawnSync(tool, [flag], { stdio: 'ignore' }).error !== undefined)
      return `${tool} is not installed (apt-get install ${pkg})`;
  }
  return undefined;
}

/** A port free for UDP and TCP on 127.0.0.1 when asked (unbound binds both). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Resolves once the server at `port` answers a query for `name` with REFUSED (rejects after 60 s). */
async function refusing(port: number, name: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const answer = await udpExchange({ host: '127.0.0.1', port }, queryMessage(name, 'A'), 200).catch(
      // Not up yet: ask again.
      () => null,
    );
    if (answer !== null && rcodeOf(answer) === REFUSED) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing on port ${port} refuses ${name}`);
}

interface PerfFigures {
  qps: number;
  /** CPU time the server spent per answered query, in µs (/proc): it moves far less with the load than qps. */
  cpuPerQueryUs: number;
  completed: number;
  lost: number;
  /** Share of answers that were REFUSED, in percent. */
  refusedPercent: number;
}

function dnsperf(server: { port: number; pid: number }, queries: string, seconds: number): PerfFigures {
  const cpuBefore = cpuMilliseconds(server.pid);
  const port = server.port;
  const output = execFileSync(
    'dnsperf',
    ['-s', '127.0.0.1', '-p', String(port), '-d', queries, '-l', String(seconds), '-c', '4', '-T', '1'],
    { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  );
  const cpu = cpuMilliseconds(server.pid) - cpuBefore;
  const number = (pattern: RegExp) => Number(pattern.exec(output)?.[1] ?? Number.NaN);
  const completed = number(/Queries completed:\s+(\d+)/);
  return {
    qps: number(/Queries per second:\s+([\d.]+)/),
    cpuPerQueryUs: (cpu * 1000) / completed,
    completed,
    lost: number(/Queries lost:\s+(\d+)/),
    refusedPercent: number(/REFUSED\s+\d+\s+\(([\d.]+)%\)/),
  };
}

const show = (figures: PerfFigures) =>
  `${Math.round(figures.qps).toLocaleString('en')} q/s, ${figures.cpuPerQueryUs.toFixed(1)} µs CPU a query (${figures.completed.toLocaleString('en')} answered, ${figures.lost} lost, ${figures.refusedPercent}% REFUSED)`;

/** The child process: the node's DNS side deciding through the kit with a compiled list of every bench name. */
async function serveNode(): Promise<void> {
  const names = Array.from({ length: NAMES }, (_, index) => benchName(index));
  const directory = mkdtempSync(join(tmpdir(), 'dns-bench-filter-'));
  process.once('exit', () => rmSync(directory, { recursive: true, force: true }));
  const filter = new NodeFilter({ directory, token: () => 'svcnode_unused' });
  await filter.applyProfile(
    nodeProfileDocument({
      settings: { block_mode: 'refused' },
      artifacts: await seededListManifest(directory, names),
    }),
  );
  const profile = new FilterInForce(filter);
  const store = await QueryLogStore.open();
  const resolver = new DnsResolver({
    profile: () => profile,
    // Every name is denied: nothing goes upstream.
    upstream: { host: '127.0.0.1', port: 9 },
    record: (query) => store.append(query),
  });
  const listener = await Do53Listener.listen(resolver, '127.0.0.1', 0);
  process.stdout.write(`listening on ${listener.address.port}\n`);
  process.once('SIGTERM', () => void listener.close().then(() => process.exit(0)));
}

function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    if (child.stdout === null) return reject(new Error('no stdout'));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /^listening on (\d+)$/.exec(line);
      if (match?.[1] !== undefined) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the node exited with ${code} before listening`)));
  });
}

function unboundConfig(dir: string, port: number, names: string[]): string {
  return [
    'server:',
    '  interface: 127.0.0.1',
    `  port: ${port}`,
    '  do-ip6: no',
    '  num-threads: 1',
    '  username: ""',
    '  chroot: ""',
    `  directory: "${dir}"`,
    '  pidfile: ""',
    '  use-syslog: no',
    '  logfile: ""',
    '  verbosity: 0',
    '  do-daemonize: no',
    '  access-control: 127.0.0.0/8 allow',
    '  module-config: "iterator"',
    ...names.map((name) => `  local-zone: "${name}." refuse`),
    'remote-control:',
    '  control-enable: no',
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const missing = missingTool();
  if (missing !== undefined) {
    process.stdout.write(`dns: skipped, ${missing}\n`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'svc-dns-bench-'));
  chmodSync(dir, 0o755);
  const children: ChildProcess[] = [];
  try {
    const names = Array.from({ length: NAMES }, (_, index) => benchName(index));
    const queries = join(dir, 'queries.txt');
    writeFileSync(queries, names.map((name) => `${name} A`).join('\n'));
    const unboundPort = await freePort();
    const config = join(dir, 'unbound.conf');
    writeFileSync(config, unboundConfig(dir, unboundPort, names));
    chmodSync(queries, 0o644);
    chmodSync(config, 0o644);
    const asRoot = process.getuid?.() === 0;
    const unbound = spawn('unbound', ['-d', '-c', config], {
      stdio: ['ignore', 'inherit', 'inherit'],
      ...(asRoot ? { uid: UNPRIVILEGED, gid: UNPRIVILEGED } : {}),
    });
    children.push(unbound);
    const node = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', THIS_FILE, '--serve-node'],
      { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODE_ENV: 'production' } },
    );
    children.push(node);
    const nodePort = await listeningPort(node);
    const probe = names[NAMES - 1] ?? 'missing';
    await Promise.all([refusing(nodePort, probe), refusing(unboundPort, probe)]);

    const nodeServer = { port: nodePort, pid: node.pid ?? 0 };
    const unboundServer = { port: unboundPort, pid: unbound.pid ?? 0 };
    dnsperf(nodeServer, queries, WARM_UP_SECONDS);
    dnsperf(unboundServer, queries, WARM_UP_SECONDS);
    const runs: { node: PerfFigures[]; unbound: PerfFigures[] } = { node: [], unbound: [] };
    for (let round = 0; round < ROUNDS; round += 1) {
      runs.node.push(dnsperf(nodeServer, queries, SECONDS));
      runs.unbound.push(dnsperf(unboundServer, queries, SECONDS));
    }
    const best = (figures: PerfFigures[]) => figures.reduce((a, b) => (b.qps > a.qps ? b : a));
    const nodeBest = best(runs.node);
    const unboundBest = best(runs.unbound);
    const ratio = nodeBest.qps / unboundBest.qps;
    const unboundVersion = /Version (\S+)/.exec(execFileSync('unbound', ['-V'], { encoding: 'utf8' }))?.[1];
    process.stdout.write(
      [
        `dns: dnsperf over UDP on loopback, ${NAMES.toLocaleString('en')} refused names, best of ${ROUNDS} × ${SECONDS} s`,
        `  reference node: ${show(nodeBest)}`,
        `  unbound ${unboundVersion ?? ''}: ${show(unboundBest)}`,
        `  ratio node/unbound: ${ratio.toFixed(2)} (target ≥ ${RATIO_TARGET}) ${ratio >= RATIO_TARGET ? 'met' : 'NOT met'}`,
        `  ratio of queries per CPU second, node/unbound: ${(unboundBest.cpuPerQueryUs / nodeBest.cpuPerQueryUs).toFixed(2)}`,
        `  all runs (q/s): node ${runs.node.map((run) => Math.round(run.qps)).join(', ')}; unbound ${runs.unbound.map((run) => Math.round(run.qps)).join(', ')}`,
        `  machine: ${machineLoad()}`,
        '',
      ].join('\n'),
    );
    if (nodeBest.refusedPercent < 99 || unboundBest.refusedPercent < 99)
      throw new Error('a server answered something else than REFUSED: the rates measure nothing');
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map(exited));
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--serve-node')) await serveNode();
else
  await main().catch((error: Error) => {
    process.stderr.write(`dns bench failed: ${error.stack ?? error.message}\n`);
    process.exitCode = 1;
  });
