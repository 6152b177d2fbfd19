import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EdgeLogWriter, type QueryLogRow } from '@svc/domain';
import { parseSettings, startServer } from '@svc/http-server';
import { createClient } from '@svc/sdk';
import type { Container } from 'inversify';
import pino from 'pino';
import { eventually, outboxMailTo } from './api-harness.js';
import { seedColumnarStore } from './columnar-template.js';
import { type DashboardServer, ensureDashboardBuilt } from './dashboard-browser.js';

const DASHBOARD_DIST = new URL('../../packages/dashboard/dist/', import.meta.url).pathname;

/** A dashboard server in the test's own process, whose stores the test can write as the edge does. */
export interface InProcessDashboard extends DashboardServer {
  container: Container;
  /** Stores log rows as the edge resolvers do (the live tail sees them arrive). */
  writeRows(rows: readonly QueryLogRow[]): Promise<void>;
  /**
   * Cuts the network between clients and the API: every open connection drops, and new ones are refused until
   * `restore` is called (a flaky network, seen from the browser).
   */
  interrupt(): { restore: () => void };
}

/** A TCP relay in front of the API that the test can cut, as a network failure would. */
class CuttableRelay {
  private readonly sockets = new Set<Socket>();
  private refusing = false;
  readonly server: Server;
  target = 0;

  constructor() {
    this.server = createServer((client) => {
      if (this.refusing) {
        client.destroy();
        return;
      }
      const upstream = connect(this.target, '127.0.0.1');
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('the relay has no port');
    return address.port;
  }

  interrupt(): { restore: () => void } {
    this.refusing = true;
    for (const socket of this.sockets) socket.destroy();
    return { restore: () => (this.refusing = false) };
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Starts the API with the embedded engines and the built dashboard in this process (as `svc serve` does in
 * its own), so that a test can play the edge with rows of its choosing, at the times of its choosing, while a
 * browser watches the live tail. Clients reach it through a relay the test can cut: its address is the base
 * URL, so the dashboard's origin, emailed links and CSRF checks all name it. `settingsEnv` adds settings
 * (`SVC_GEOIP_DB`, …).
 */
export async function startInProcessDashboard(
  settingsEnv: Record<string, string> = {},
): Promise<InProcessDashboard> {
  ensureDashboardBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-dashboard-inproc-'));
  await seedColumnarStore(dataDir);
  const relay = new CuttableRelay();
  const relayPort = await relay.listen();
  const env = {
    SVC_ENV: 'development',
    SVC_SECRET: 'dashboard-e2e-secret-long-enough-for-hkdf-0123456789',
    ...settingsEnv,
  };
  const settings = parseSettings({
    ...env,
    PORT: '0',
    SVC_BASE_URL: `http://127.0.0.1:${relayPort}`,
    SVC_DATA_DIR: dataDir,
  });
  const server = await startServer({
    settings,
    logger: pino({ level: 'warn' }),
    storage: 'engines',
    dashboardDir: DASHBOARD_DIST,
  });
  relay.target = Number(new URL(server.url).port);
  const url = `http://127.0.0.1:${relayPort}`;
  const mailTo = (address: string) => outboxMailTo(dataDir, address);
  const writer = await server.container.getAsync<EdgeLogWriter>(EdgeLogWriter);
  return {
    url,
    dataDir,
    env,
    container: server.container,
    mailTo,
    async linkFromEmail(address, path, index = 0) {
      const mails = await eventually(
        async () => mailTo(address),
        (found) => found.length > index,
        15_000,
      );
      const link = new RegExp(`https?://[^\\s"<>]*${path.source}[^\\s"<>]*`).exec(mails[index] ?? '')?.[0];
      if (link === undefined) throw new Error(`no link matching ${path} in the email to ${address}`);
      return link;
    },
    client: () => createClient({ baseUrl: url, origin: url, maxRetries: 0 }),
    writeRows: (rows) => writer.writeRows(rows, 90),
    interrupt: () => relay.interrupt(),
    async close() {
      await relay.close();
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let rowSequence = 0;

/** A log row as the edge records it, with what a test cares about and ordinary values for the rest. */
export function logRow(profileId: string, fields: Partial<QueryLogRow> & { qname: string }): QueryLogRow {
  rowSequence += 1;
  return {
    profileId,
    ts: new Date(),
    rowId: String(9_100_000_000_000 + rowSequence),
    pop: 'yyz',
    node: null,
    deviceId: '',
    deviceName: '',
    clientIp: '198.51.100.7',
    transport: 'doh',
    qtype: 1,
    status: 'allowed',
    reasonListId: null,
    reasonListName: '',
    reasonRule: '',
    operatorCode: '',
    rcode: 0,
    dnssecValidated: false,
    cacheHit: false,
    latencyUs: 1200,
    answerIps: ['93.184.216.34'],
    ...fields,
  };
}
