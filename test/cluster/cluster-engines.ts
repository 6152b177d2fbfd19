import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConnectionOptions } from 'nats';
import {
  freePort,
  ownForPostgres,
  privateNatsUnavailable,
  privatePostgresUnavailable,
  runPostgresTool,
  waitForPort,
} from '../support/private-engines.js';

/**
 * The engines of the scale-out topology on loopback (issue 32): a PostgreSQL primary with a streaming hot
 * standby, a three-node NATS cluster, and Caddy with the Caddyfile deploy/ ships. Private data dirs and free
 * ports; the machine's own servers (5432, 4222) are never touched.
 */

const ROOT = new URL('../../', import.meta.url).pathname;
const NATS_SERVER = '/usr/sbin/nats-server';
const CADDY = '/usr/bin/caddy';
const OPENSSL = '/usr/bin/openssl';

/** Why the cluster harness cannot run here, or undefined when it can. */
export function clusterUnavailable(): string | undefined {
  if (!existsSync(CADDY)) return `${CADDY} is not installed (apt-get install caddy)`;
  if (!existsSync(join(ROOT, 'packages/cli/dist/bin.js'))) return 'the server is not built (npm run build)';
  if (!existsSync(OPENSSL)) return `${OPENSSL} is not installed (the NATS certificates are made with it)`;
  return privatePostgresUnavailable() ?? privateNatsUnavailable();
}

/** Resolves once the process has exited (at once when it already has). */
export function exitOf(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/** A primary and its hot standby, each in a directory of its own under one temporary directory. */
export interface PostgresPair {
  /** libpq's multi-host URL over both, `target_session_attrs=read-write`: the DATABASE_URL of the servers. */
  url: string;
  /** The primary alone (for reading what is stored while it runs). */
  primaryUrl: string;
  /** The standby alone. */
  standbyUrl: string;
  /** `pg_ctl stop -m immediate` of the primary: every backend dies at once, as in a crash. */
  crashPrimary(): Promise<void>;
  /** `pg_ctl promote` of the standby, waiting until it accepts writes. */
  promoteStandby(): Promise<void>;
  destroy(): Promise<void>;
}

/**
 * Starts a primary and a standby copied from it with pg_basebackup, streaming. Replication is synchronous
 * (`synchronous_standby_names = '*'`): a commit is acknowledged once the standby has it, so promoting the
 * standby after a crash of the primary loses no acknowledged write. The price: writes wait while the
 * standby is away.
 */
export async function startPostgresPair(): Promise<PostgresPair> {
  const directory = mkdtempSync(join(tmpdir(), 'svc-cluster-pg-'));
  await ownForPostgres(directory);
  const primary = join(directory, 'primary');
  const standby = join(directory, 'standby');
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  await runPostgresTool('initdb', ['-D', primary, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  // Only the primary waits for a standby: the standby, once promoted, has none to wait for.
  const options = (port: number, data: string) =>
    `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c wal_level=replica -c max_wal_senders=5 ` +
    `-c max_connections=200${data === primary ? ' -c synchronous_standby_names=*' : ''}`;
  const pgCtl = (data: string, args: string[]) => runPostgresTool('pg_ctl', ['-D', data, ...args]);
  const start = (data: string, port: number, log: string) =>
    pgCtl(data, ['-o', options(port, data), '-l', join(directory, log), '-w', '-t', '60', 'start']);
  const running = new Set<string>();
  await start(primary, primaryPort, 'primary.log');
  running.add(primary);
  await runPostgresTool('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primaryPort),
    '-U',
    'postgres',
    '-D',
    standby,
    '-R',
    '-X',
    'stream',
  ]);
  await start(standby, standbyPort, 'standby.log');
  running.add(standby);
  const hostUrl = (port: number) => `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url: `postgres://postgres@127.0.0.1:${primaryPort},127.0.0.1:${standbyPort}/postgres?target_session_attrs=read-write`,
    primaryUrl: hostUrl(primaryPort),
    standbyUrl: hostUrl(standbyPort),
    crashPrimary: async () => {
      await pgCtl(primary, ['-m', 'immediate', '-w', 'stop']);
      running.delete(primary);
    },
    promoteStandby: async () => {
      await pgCtl(standby, ['-w', '-t', '60', 'promote']);
    },
    destroy: async () => {
      for (const data of running) await pgCtl(data, ['-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** A three-node NATS cluster, each node from deploy/nats/nats.conf with its ports and certificates filled in. */
export interface NatsCluster {
  /** The client URLs of the nodes, in node order, as the API servers' NATS_URL names them (with their user). */
  urls: string[];
  /** The CA file the nodes' certificates are checked against (NATS_TLS_CA). */
  caFile: string;
  /** Options of a raw NATS client signed in as `user` ('svc-api' by default) to the nodes `indices`. */
  clientOptions(indices: number[], user?: NatsUser): ConnectionOptions;
  /** The passwords of the users deploy/nats/nats.conf declares, as the harness made them. */
  passwords: Record<NatsUser, string>;
  /** The plain client URLs of the nodes (no user), for clients that bring their own. */
  addresses: string[];
  /** SIGKILL of node `index` (0, 1 or 2). */
  kill(index: number): Promise<void>;
  /** Starts node `index` again on its ports. */
  start(index: number): Promise<void>;
  destroy(): Promise<void>;
}

/** The users deploy/nats/nats.conf declares. */
type NatsUser = 'svc-api' | 'svc-edge';

/**
 * deploy/nats/nats.conf with loopback ports in place of the compose network's names and fixed ports, and the
 * certificates in `certificates` in place of /etc/nats/certs.
 */
function natsConfiguration(
  ports: { client: number; monitor: number; route: number },
  routes: number[],
  certificates: string,
): string {
  const shipped = readFileSync(join(ROOT, 'deploy/nats/nats.conf'), 'utf8');
  let routeIndex = 0;
  const filled = shipped
    .replace(/^port: 4222$/m, `host: 127.0.0.1\nport: ${ports.client}`)
    .replace(/^http_port: 8222$/m, `http_port: ${ports.monitor}`)
    .replace(/^ {2}port: 6222$/m, `  host: 127.0.0.1\n  port: ${ports.route}`)
    .replace(/nats:\/\/nats-\d:6222/g, () => `nats://127.0.0.1:${routes[routeIndex++]}`)
    .replaceAll('/etc/nats/certs/', `${certificates}/`);
  if (
    routeIndex !== 3 ||
    !filled.includes(`port: ${ports.route}`) ||
    !filled.includes(`${certificates}/server.pem`) ||
    !filled.includes('$NATS_API_PASSWORD')
  )
    throw new Error('deploy/nats/nats.conf no longer has the shape the harness fills in');
  return filled;
}

/** Makes the cluster's certificates with the script deploy/ ships (openssl). */
async function makeCertificates(directory: string): Promise<void> {
  const child = spawn('sh', [join(ROOT, 'deploy/nats/make-certs.sh'), directory], { stdio: 'ignore' });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`deploy/nats/make-certs.sh exited with ${code}`);
}

export async function startNatsCluster(): Promise<NatsCluster> {
  const directory = mkdtempSync(join(tmpdir(), 'svc-cluster-nats-'));
  const certificates = join(directory, 'certs');
  await makeCertificates(certificates);
  const passwords: Record<NatsUser, string> = {
    // Led by letters: nats-server reads a variable's value as a number when it starts like one (3e45…).
    'svc-api': `svc${randomBytes(18).toString('hex')}`,
    'svc-edge': `svc${randomBytes(18).toString('hex')}`,
  };
  const clientPorts = [await freePort(), await freePort(), await freePort()];
  const routePorts = [await freePort(), await freePort(), await freePort()];
  const nodes: (ChildProcess | undefined)[] = [undefined, undefined, undefined];
  const files = clientPorts.map(async (clientPort, index) => {
    const file = join(directory, `nats-${index + 1}.conf`);
    const ports = { client: clientPort, monitor: await freePort(), route: routePorts[index] ?? 0 };
    writeFileSync(file, natsConfiguration(ports, routePorts, certificates));
    return file;
  });
  const configurations = await Promise.all(files);
  const start = async (index: number) => {
    const child = spawn(NATS_SERVER, ['-c', configurations[index] ?? ''], {
      // stderr kept: a node that exits at start-up says why in the failure.
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        NATS_NAME: `nats-${index + 1}`,
        NATS_API_PASSWORD: passwords['svc-api'],
        NATS_EDGE_PASSWORD: passwords['svc-edge'],
      },
    });
    nodes[index] = child;
    let said = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      said = `${said}${chunk.toString()}`.slice(-2_000);
    });
    await waitForPort(clientPorts[index] ?? 0, child).catch((error: unknown) => {
      throw new Error(`nats-${index + 1}: ${error instanceof Error ? error.message : 'failed'}\n${said}`);
    });
  };
  const kill = async (index: number) => {
    const child = nodes[index];
    nodes[index] = undefined;
    if (child === undefined) return;
    child.kill('SIGKILL');
    await exitOf(child);
  };
  await Promise.all([0, 1, 2].map(start));
  const addresses = clientPorts.map((port) => `nats://127.0.0.1:${port}`);
  const caFile = join(certificates, 'ca.pem');
  return {
    urls: clientPorts.map((port) => `nats://svc-api:${passwords['svc-api']}@127.0.0.1:${port}`),
    caFile,
    passwords,
    addresses,
    clientOptions: (indices, user = 'svc-api') => ({
      servers: indices.map((index) => addresses[index] ?? ''),
      user,
      pass: passwords[user],
      tls: { caFile },
      maxReconnectAttempts: -1,
    }),
    kill,
    start,
    destroy: async () => {
      await Promise.all([0, 1, 2].map(kill));
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Caddy in front of the API servers, with deploy/caddy/Caddyfile (the upstreams and address filled in). */
export interface Balancer {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** Caddy's process id (for its CPU time). */
  pid: number | undefined;
  destroy(): Promise<void>;
}

/** Starts Caddy on a free port with the shipped Caddyfile, plain HTTP on loopback, and waits until it listens. */
export async function startBalancer(upstreams: string[]): Promise<Balancer> {
  const directory = mkdtempSync(join(tmpdir(), 'svc-cluster-caddy-'));
  mkdirSync(join(directory, 'home'));
  const port = await freePort();
  const adminPort = await freePort();
  const child = spawn(
    CADDY,
    ['run', '--adapter', 'caddyfile', '--config', join(ROOT, 'deploy/caddy/Caddyfile')],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        HOME: join(directory, 'home'),
        XDG_CONFIG_HOME: join(directory, 'config'),
        XDG_DATA_HOME: join(directory, 'data'),
        ACME_EMAIL: 'operator@example.test',
        // An http:// site address: plain HTTP, no certificate.
        SVC_PUBLIC_HOST: `http://127.0.0.1:${port}`,
        SVC_UPSTREAMS: upstreams.map((upstream) => upstream.replace(/^http:\/\//, '')).join(' '),
        CADDY_ADMIN: `127.0.0.1:${adminPort}`,
      },
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  try {
    await waitForPort(port, child);
  } catch (error) {
    throw new Error(`caddy did not start: ${stderr}`, { cause: error });
  }
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    destroy: async () => {
      // Caddy holds nothing worth a graceful stop, and its grace period waits for every open connection.
      child.kill('SIGKILL');
      await exitOf(child);
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
