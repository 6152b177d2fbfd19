import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * `npm run bench`: GET /v1/meta through the full stack on the embedded default, next to a bare express 5 app
 * and a bare node:http server sending the same bytes, each loaded by autocannon in its own process on
 * 127.0.0.1 for a bounded time. Also prints the server's idle RSS and the time from start to first answer.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const NODE_ARGS = ['--conditions=source', '--import', 'tsx'];

interface Figures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
}

function waitForListening(child: ChildProcess): Promise<string> {
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

function rssMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kilobytes = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kilobytes / 1024;
}

async function firstAnswer(url: string, started: number): Promise<number> {
  for (;;) {
    const answered = await fetch(`${url}/v1/meta`).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function load(url: string): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        join(ROOT, 'node_modules/autocannon/autocannon.js'),
        '-j',
        '-c',
        String(CONNECTIONS),
        '-d',
        String(SECONDS),
        `${url}/v1/meta`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}`));
      const result = JSON.parse(output) as {
        requests: { average: number };
        latency: { p50: number; p99: number };
      };
      resolve({
        requestsPerSecond: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
      });
    });
  });
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const started = performance.now();
  const server = spawn(
    process.execPath,
    [...NODE_ARGS, join(ROOT, 'packages/cli/src/bin.ts'), 'serve', '--port', '0', '--data-dir', dataDir],
    {
      env: {
        ...process.env,
        SVC_ENV: 'development',
        SVC_LOG_LEVEL: 'warn',
        SVC_RATE_LIMIT_PER_MINUTE: '100000000',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const children: ChildProcess[] = [server];
  try {
    const url = await waitForListening(server);
    const startMs = await firstAnswer(url, started);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idleRss = rssMegabytes(server.pid ?? 0);
    const body = await (await fetch(`${url}/v1/meta`)).text();

    const baselines: Record<string, string> = {};
    for (const kind of ['express', 'node-http']) {
      const child = spawn(
        process.execPath,
        [...NODE_ARGS, join(ROOT, 'test/bench/bare-servers.ts'), kind, body],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      children.push(child);
      baselines[kind] = await waitForListening(child);
    }
    const full = await load(url);
    const bareExpress = await load(baselines.express ?? '');
    const bareNode = await load(baselines['node-http'] ?? '');
    const row = (name: string, figures: Figures) =>
      `${name.padEnd(22)} ${figures.requestsPerSecond.toFixed(0).padStart(8)} req/s   p50 ${String(figures.p50).padStart(3)} ms   p99 ${String(figures.p99).padStart(3)} ms`;
    process.stdout.write(
      [
        `GET /v1/meta, ${CONNECTIONS} connections, ${SECONDS} s each, autocannon in its own process`,
        row('full stack (svc)', full),
        row('bare express 5', bareExpress),
        row('bare node:http', bareNode),
        `full stack / bare express: ${(full.requestsPerSecond / bareExpress.requestsPerSecond).toFixed(2)} (target ≥ 0.80)`,
        `bare express / node:http:  ${(bareExpress.requestsPerSecond / bareNode.requestsPerSecond).toFixed(2)}`,
        `full stack / node:http:    ${(full.requestsPerSecond / bareNode.requestsPerSecond).toFixed(2)}`,
        `idle RSS (embedded default): ${idleRss.toFixed(0)} MB (target < 350 MB)`,
        `start to first answer: ${startMs.toFixed(0)} ms (target < 3000 ms)`,
        '',
      ].join('\n'),
    );
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
