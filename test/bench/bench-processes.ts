import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** The repository root. */
export const ROOT = new URL('../../', import.meta.url).pathname;

/** Throughput and latency of one autocannon run. */
export interface Figures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Answers outside 2xx (a benchmark that measures errors measures nothing). */
  non2xx: number;
  /** Requests answered in the run. */
  total: number;
  /** CPU time the server process spent per request, in µs, when its pid was given. */
  cpuPerRequest?: number;
}

/** Resolves the URL of the `listening on` line, or rejects when the process exits first. */
export function waitForListening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    if (child.stdout === null) return reject(new Error('no stdout'));
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const match = /^listening on (http:\/\/\S+)$/.exec(line);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening`)));
  });
}

/** Resolves once the process has exited. */
export function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/** `read()`, or `gone` when the process or thread has exited since it was listed. */
function unlessGone<T>(read: () => T, gone: T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'ESRCH'))
      return gone;
    throw error;
  }
}

const procText = (path: string) => unlessGone(() => readFileSync(path, 'utf8'), '');

function childrenOf(pid: number): number[] {
  const tasks = unlessGone(() => readdirSync(`/proc/${pid}/task`), []);
  return tasks.flatMap((task) => {
    const listed = procText(`/proc/${pid}/task/${task}/children`).trim();
    return listed.length > 0 ? listed.split(/\s+/).map(Number) : [];
  });
}

function ownRssKilobytes(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(procText(`/proc/${pid}/status`))?.[1] ?? 0);
}

/**
 * Resident memory of a process and all its descendants, in MB: the server, PGlite's initdb child, the chdb
 * migration child, tsx's esbuild service… whatever it started counts.
 */
export function treeRssMegabytes(pid: number): number {
  let kilobytes = 0;
  const pending = [pid];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    kilobytes += ownRssKilobytes(next);
    pending.push(...childrenOf(next));
  }
  return kilobytes / 1024;
}

/** Samples the tree's RSS every 25 ms until stopped; `stop` returns the largest sample. */
export function samplePeakRss(pid: number): { stop(): number } {
  let peak = treeRssMegabytes(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, treeRssMegabytes(pid));
  }, 25);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, treeRssMegabytes(pid));
    },
  };
}

/** Milliseconds from `started` to the first 200 of GET /v1/meta. */
export async function firstAnswer(url: string, started: number): Promise<number> {
  for (;;) {
    const answered = await fetch(`${url}/v1/meta`).then(
      async (response) => {
        await response.arrayBuffer();
        return response.ok;
      },
      () => false,
    );
    if (answered) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * CPU time of a process in ms: its own threads, plus its children that have exited (initdb, the chdb
 * migration). Unlike wall time it hardly depends on what else the machine runs.
 */
export function cpuMilliseconds(pid: number): number {
  const fields = procText(`/proc/${pid}/stat`).split(') ')[1]?.split(' ') ?? [];
  const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index] ?? 0), 0);
  return (ticks * 1000) / 100;
}

/**
 * CPU time of a process's main thread in ms: the JavaScript that stands between start and first answer.
 * Compilation and GC threads run beside it on the other core.
 */
export function mainThreadCpuMilliseconds(pid: number): number {
  const fields = procText(`/proc/${pid}/task/${pid}/stat`).split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 1000) / 100;
}

/** Options of one autocannon run. */
export interface LoadOptions {
  seconds: number;
  connections: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** The server's pid, to measure its CPU time per request. */
  serverPid?: number;
}

/** Runs autocannon in its own process against `url` and reads its JSON summary. */
export function load(url: string, options: LoadOptions): Promise<Figures> {
  const cpuBefore = options.serverPid === undefined ? 0 : cpuMilliseconds(options.serverPid);
  const headers = Object.entries(options.headers ?? {}).flatMap(([name, value]) => [
    '-H',
    `${name}=${value}`,
  ]);
  const args = [
    join(ROOT, 'node_modules/autocannon/autocannon.js'),
    '-j',
    '-c',
    String(options.connections),
    '-d',
    String(options.seconds),
    '-m',
    options.method ?? 'GET',
    ...headers,
    ...(options.body === undefined ? [] : ['-b', options.body]),
    url,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}`));
      const result = JSON.parse(output) as {
        requests: { average: number; total: number };
        latency: { p50: number; p99: number };
        non2xx: number;
      };
      const cpu =
        options.serverPid === undefined ? undefined : cpuMilliseconds(options.serverPid) - cpuBefore;
      resolve({
        requestsPerSecond: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        non2xx: result.non2xx,
        total: result.requests.total,
        ...(cpu === undefined ? {} : { cpuPerRequest: (cpu * 1000) / Math.max(1, result.requests.total) }),
      });
    });
  });
}

function newestSource(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Packages whose build (dist/) is missing or older than their sources. */
export function staleBuilds(): string[] {
  const packages = ['domain', 'adapters', 'http-server', 'cli'];
  return packages.filter((name) => {
    const built = join(ROOT, 'packages', name, 'dist/index.js');
    return !existsSync(built) || statSync(built).mtimeMs < newestSource(join(ROOT, 'packages', name, 'src'));
  });
}

/** Runs `npm run build` with its output on stderr. */
export function build(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 2, 'inherit'] });
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`npm run build exited with ${code}`)),
    );
  });
}
