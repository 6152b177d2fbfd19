import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * PostgreSQL and NATS instances of one test file, on ports of their own, for fault tests that stop and start
 * them: the machine's shared servers (5432, 4222) serve other tests and are never touched.
 */

const POSTGRES_BIN = '/usr/lib/postgresql/15/bin';
const NATS_SERVER = '/usr/sbin/nats-server';
/** PostgreSQL refuses to run as root: as root, its tools run as the `postgres` system user. */
const RUNUSER = '/usr/sbin/runuser';

/** Why a private PostgreSQL cluster cannot run here, or undefined when it can. */
export function privatePostgresUnavailable(): string | undefined {
  for (const tool of ['initdb', 'pg_ctl']) {
    if (!existsSync(join(POSTGRES_BIN, tool))) return `${join(POSTGRES_BIN, tool)} is not installed`;
  }
  if (process.getuid?.() === 0 && !existsSync(RUNUSER)) return `running as root without ${RUNUSER}`;
  return undefined;
}

/** Why a private NATS server cannot run here, or undefined when it can. */
export function privateNatsUnavailable(): string | undefined {
  return existsSync(NATS_SERVER) ? undefined : `${NATS_SERVER} is not installed`;
}

/** A loopback port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function run(file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: 60_000 }, (error, stdout, stderr) => {
      if (error === null) resolve(stdout);
      else reject(new Error(`${file} ${args.join(' ')}: ${stderr.trim() || error.message}`));
    });
  });
}

/** Runs a PostgreSQL tool as the current user, or as `postgres` when that is root. */
export function runPostgresTool(tool: string, args: string[]): Promise<string> {
  const file = join(POSTGRES_BIN, tool);
  return process.getuid?.() === 0 ? run(RUNUSER, ['-u', 'postgres', '--', file, ...args]) : run(file, args);
}

/** Hands `directory` to the `postgres` user when running as root (the cluster's files must be its own). */
export async function ownForPostgres(directory: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  chownSync(directory, Number(uid.trim()), Number(gid.trim()));
}

/** A PostgreSQL cluster in a temporary directory, on its own port, with trust authentication. */
export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:PORT/postgres`. */
  url: string;
  port: number;
  /** `pg_ctl stop -m immediate`: every backend dies at once, as in a crash. */
  crash(): Promise<void>;
  /** `pg_ctl start`, waiting until it accepts connections. */
  start(): Promise<void>;
  /** Stops the cluster (if running) and removes its directory. */
  destroy(): Promise<void>;
}

/** Initialises and starts a private cluster. */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const directory = mkdtempSync(join(tmpdir(), 'svc-private-pg-'));
  const data = join(directory, 'data');
  const port = await freePort();
  await ownForPostgres(directory);
  await runPostgresTool('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=on`;
  const pgCtl = (args: string[]) => runPostgresTool('pg_ctl', ['-D', data, ...args]);
  let running = false;
  const start = async () => {
    await pgCtl(['-o', options, '-l', join(directory, 'log'), '-w', '-t', '60', 'start']);
    running = true;
  };
  const crash = async () => {
    await pgCtl(['-m', 'immediate', '-w', 'stop']);
    running = false;
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    crash,
    start,
    destroy: async () => {
      if (running) await crash();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** A NATS server on its own port. */
export interface PrivateNats {
  /** `nats://127.0.0.1:PORT`. */
  url: string;
  /** Stops the server and waits until it is gone. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Stops it and removes its JetStream directory. */
  destroy(): Promise<void>;
}

/** Resolves once something accepts TCP connections on `port`; rejects when `child` exits first. */
export function waitForPort(port: number, child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 15_000;
    const attempt = () => {
      if (child.exitCode !== null) return reject(new Error(`nats-server exited with ${child.exitCode}`));
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`nothing listens on ${port}`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

/**
 * Starts a private NATS server; with `jetstream`, JetStream keeps its streams in a temporary directory that
 * outlives a stop and start, so a stream records every message the server accepted, whoever subscribed.
 */
export async function startPrivateNats(options: { jetstream?: boolean } = {}): Promise<PrivateNats> {
  const port = await freePort();
  const store = options.jetstream === true ? mkdtempSync(join(tmpdir(), 'svc-private-nats-')) : undefined;
  const args = ['-a', '127.0.0.1', '-p', String(port), ...(store === undefined ? [] : ['-js', '-sd', store])];
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(NATS_SERVER, args, { stdio: 'ignore' });
    child = started;
    await waitForPort(port, started);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    stop,
    start,
    destroy: async () => {
      await stop();
      if (store !== undefined) rmSync(store, { recursive: true, force: true });
    },
  };
}
