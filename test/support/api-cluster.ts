import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BusDelivery, MessageBus } from '@svc/domain';
import { parseSettings, type RunningServer, startServer } from '@svc/http-server';
import { ManualClock } from '@svc/testing/clock';
import { createScratchDatabase } from '@svc/testing/postgres';
import pino from 'pino';
import { type ApiHarness, outboxMailTo } from './api-harness.js';
import { seedColumnarStore } from './columnar-template.js';

/** One or more API servers sharing one database, with what their outbox relays published. */
export interface ApiCluster {
  /** Base URLs, one per server. */
  urls: string[];
  /** The servers themselves (containers for schedulers and stores), in start order. */
  servers: RunningServer[];
  /** The first server as a harness (its container; mail sent by any of the servers). */
  harness: ApiHarness;
  /** Every message any server's outbox relay published on its bus, in arrival order. */
  published: BusDelivery[];
  close(): Promise<void>;
}

/**
 * The SVC_SECRET every server of a test cluster shares: one per test file, so that clusters of two files running
 * at once on the shared NATS server refuse each other's relayed queries (their subjects are the same).
 */
export const CLUSTER_SECRET = `cluster-secret-that-is-long-enough-for-hkdf-${randomBytes(12).toString('hex')}`;

/**
 * Starts `count` API servers on embedded PGlite (one server: a data dir has one owner) or on one scratch
 * database of the PostgreSQL server, each with its own in-process bus (unless `settings` names NATS_URL) and
 * the same manual clock. The outbox relay holding the advisory lock publishes each row on its own server's
 * bus, so `published` listens on all of them.
 */
export async function startCluster(
  storage: 'pglite' | 'postgres',
  count: number,
  settings: Record<string, string> = {},
): Promise<ApiCluster> {
  if (storage === 'pglite' && count !== 1) throw new Error('PGlite serves one API server per data dir');
  const scratch = storage === 'postgres' ? await createScratchDatabase() : undefined;
  const servers: RunningServer[] = [];
  const dirs: string[] = [];
  const published: BusDelivery[] = [];
  const clock = new ManualClock();
  for (let index = 0; index < count; index += 1) {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-cluster-'));
    dirs.push(dataDir);
    await seedColumnarStore(dataDir);
    const server = await startServer({
      settings: parseSettings({
        SVC_ENV: 'development',
        PORT: '0',
        SVC_SECRET: CLUSTER_SECRET,
        SVC_DATA_DIR: dataDir,
        SVC_LIST_REFRESH_HOURS: '0',
        // The dashboard origin the suites sign in from (a separately hosted dashboard, as RUNNER.md describes).
        SVC_DASHBOARD_URL: 'http://localhost:3000',
        ...(scratch === undefined ? {} : { DATABASE_URL: scratch.url }),
        ...settings,
      }),
      logger: pino({ level: 'warn' }),
      storage: 'engines',
      clock,
    });
    servers.push(server);
    const bus = await server.container.getAsync<MessageBus>(MessageBus);
    await bus.subscribe('>', (delivery) => {
      published.push(delivery);
    });
  }
  const [first] = servers;
  if (first === undefined) throw new Error('a cluster has at least one server');
  return {
    urls: servers.map((server) => server.url),
    servers,
    published,
    harness: {
      url: first.url,
      clock,
      container: first.container,
      mailTo: async (address) => dirs.flatMap((dir) => outboxMailTo(dir, address)),
      close: async () => undefined,
    },
    close: async () => {
      for (const server of servers) await server.close();
      await scratch?.drop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}
