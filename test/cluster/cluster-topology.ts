import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from '../support/private-engines.js';
import {
  type Balancer,
  exitOf,
  type NatsCluster,
  type PostgresPair,
  startBalancer,
  startNatsCluster,
  startPostgresPair,
} from './cluster-engines.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const SECRET = 'cluster-harness-secret-that-is-long-enough-0123456789';

/** One `svc serve` process of the topology, on a port of its own that it keeps across restarts. */
interface ApiServer {
  url: string;
  /** The running process, or undefined while it is stopped. */
  child: ChildProcess | undefined;
}

/** The whole topology: what the tests drive, fault and read back. */
export interface Topology {
  /** The balancer's URL: what clients use. */
  url: string;
  /** The balancer's process id. */
  balancerPid: number | undefined;
  servers: ApiServer[];
  postgres: PostgresPair;
  nats: NatsCluster;
  /** The data dir the servers share (mail outbox, generated signing key). */
  dataDir: string;
  /** SIGKILL of server `index`. */
  kill(index: number): Promise<void>;
  /** SIGTERM of server `index`, waiting for its drain and exit. */
  stop(index: number): Promise<void>;
  /** Starts server `index` again, resolving once it listens. */
  start(index: number): Promise<void>;
  destroy(): Promise<void>;
}

/** Resolves once the process prints its `listening on` line; rejects when it exits first. */
function listening(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    if (child.stdout !== null)
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (line.startsWith('listening on ')) resolve();
      });
    child.once('exit', (code) =>
      reject(new Error(`svc serve exited with ${code} before listening: ${stderr}`)),
    );
  });
}

/**
 * Brings up the topology deploy/ describes, on loopback: the PostgreSQL pair, the NATS cluster, `count` API
 * servers (the built server, `node packages/cli/dist/bin.js serve` as the Dockerfile runs it) and Caddy with
 * the shipped Caddyfile in front. The servers get no ClickHouse (a port nothing listens on): query logs are
 * no part of what this topology proves, and three embedded chdb would not fit two cores.
 */
export async function startTopology(count: number): Promise<Topology> {
  const cleanups: (() => Promise<void>)[] = [];
  const destroy = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  };
  try {
    const postgres = await startPostgresPair();
    cleanups.push(() => postgres.destroy());
    const nats = await startNatsCluster();
    cleanups.push(() => nats.destroy());
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-cluster-data-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const closedPort = await freePort();
    const ports: number[] = [];
    for (let index = 0; index < count; index += 1) ports.push(await freePort());
    const servers: ApiServer[] = ports.map((port) => ({ url: `http://127.0.0.1:${port}`, child: undefined }));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      SVC_ENV: 'development',
      SVC_SECRET: SECRET,
      SVC_DATA_DIR: dataDir,
      DATABASE_URL: postgres.url,
      NATS_URL: nats.urls.join(','),
      NATS_TLS_CA: nats.caFile,
      CLICKHOUSE_URL: `http://127.0.0.1:${closedPort}`,
      SVC_TRUST_PROXY: '127.0.0.1',
      SVC_RATE_LIMIT_PER_MINUTE: '100000000',
      SVC_LIST_REFRESH_HOURS: '0',
      SVC_LOG_LEVEL: 'warn',
      // As deploy/compose.yaml: unready for longer than Caddy's 2 s health interval before draining.
      SVC_SHUTDOWN_DELAY_SECONDS: '3',
    };
    delete env.SMTP_URL;
    const start = async (index: number) => {
      const child = spawn(
        process.execPath,
        [join(ROOT, 'packages/cli/dist/bin.js'), 'serve', '--port', String(ports[index])],
        { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const server = servers[index];
      if (server !== undefined) server.child = child;
      await listening(child);
    };
    const signal = async (index: number, name: NodeJS.Signals) => {
      const server = servers[index];
      const child = server?.child;
      if (server === undefined || child === undefined) return;
      server.child = undefined;
      child.kill(name);
      await exitOf(child);
    };
    cleanups.push(async () => {
      await Promise.all(servers.map((_, index) => signal(index, 'SIGKILL')));
    });
    // The first server migrates and generates the development signing key into the shared data dir.
    await start(0);
    await Promise.all(servers.slice(1).map((_, index) => start(index + 1)));
    const balancer: Balancer = await startBalancer(servers.map((server) => server.url));
    cleanups.push(() => balancer.destroy());
    return {
      url: balancer.url,
      balancerPid: balancer.pid,
      servers,
      postgres,
      nats,
      dataDir,
      kill: (index) => signal(index, 'SIGKILL'),
      stop: (index) => signal(index, 'SIGTERM'),
      start,
      destroy,
    };
  } catch (error) {
    await destroy();
    throw error;
  }
}
