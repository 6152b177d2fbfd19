import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSettings, type RunningServer, startServer } from '@svc/http-server';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createScratchDatabase,
  postgresServerSkipReason,
} from '../../../packages/adapters/tests/support/postgres-server.js';
import type { NodeAlertScheduler } from '../../../packages/http-server/src/composition/node-alert.scheduler.js';
import { NodeAlertSchedulerToken } from '../../../packages/http-server/src/composition/tokens.js';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, eventually } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { ManualClock } from '../../support/manual-clock.js';
import { openLink } from './link-client.js';

const SECRET = 'alerts-cross-server-secret-long-enough-0123456789';
const DELAY_MS = 600_000;

/**
 * Node presence across two API servers on one PostgreSQL database (spec 8): the server holding a node's link
 * records its heartbeats, so the other server's scheduler does not read the node offline; a link no server
 * hears from any more (its server died without closing it) reads offline after the delay; and the server that
 * does hold the link sees it back.
 */
describe.skipIf(postgresServerSkipReason !== undefined)('node alerts across API servers (spec 8)', () => {
  const servers: RunningServer[] = [];
  const dirs: string[] = [];
  const clock = new ManualClock();
  let drop: (() => Promise<void>) | undefined;
  let owner: TestAccount;

  beforeAll(async () => {
    const scratch = await createScratchDatabase();
    drop = scratch.drop;
    for (let i = 0; i < 2; i += 1) {
      const dataDir = mkdtempSync(join(tmpdir(), 'svc-alerts-'));
      dirs.push(dataDir);
      servers.push(
        await startServer({
          settings: parseSettings({
            SVC_ENV: 'development',
            PORT: '0',
            SVC_SECRET: SECRET,
            SVC_DATA_DIR: dataDir,
            DATABASE_URL: scratch.url,
          }),
          logger: pino({ level: 'warn' }),
          storage: 'engines',
          clock,
        }),
      );
    }
    const [first] = servers as [RunningServer];
    // Mail may go out through either server; the harness reads both outboxes.
    const harness: ApiHarness = {
      url: first.url,
      clock,
      container: first.container,
      mailTo: async (address) =>
        dirs.flatMap((dir) => {
          const folder = join(dir, 'mail');
          if (!existsSync(folder)) return [];
          return readdirSync(folder)
            .map((name) =>
              readFileSync(join(folder, name), 'utf8')
                .replace(/=\r?\n/g, '')
                .replace(/=3D/g, '='),
            )
            .filter((message) => message.includes(`To: ${address}`));
        }),
      close: async () => undefined,
    };
    owner = await createAccount(harness);
  }, 120_000);
  afterAll(async () => {
    for (const server of servers) await server.close();
    await drop?.();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('reads a node linked to the other server online while heard, offline once not, and back', async () => {
    const [first, second] = servers as [RunningServer, RunningServer];
    const [holder, other] = await Promise.all(
      [first, second].map((server) => server.container.getAsync<NodeAlertScheduler>(NodeAlertSchedulerToken)),
    );
    if (holder === undefined || other === undefined) throw new Error('no scheduler');
    await holder.stop();
    await other.stop();

    const profile = await send(`${first.url}/v1/profiles`, {
      method: 'POST',
      headers: owner.auth,
      body: { settings: { log_destination: 'self-hosted' } },
    });
    const profileId = (profile.json as { id: string }).id;
    const created = await send(`${first.url}/v1/profiles/${profileId}/nodes`, {
      method: 'POST',
      headers: owner.auth,
      body: { name: 'far' },
    });
    const code = (created.json as { enrolment_code: string }).enrolment_code;
    const enrolled = await send(`${first.url}/v1/nodes/enrol`, {
      method: 'POST',
      body: { enrolment_code: code },
    });
    const { node, node_token } = enrolled.json as { node: { id: string }; node_token: string };
    const link = await openLink(first.url, node_token);
    link.send({ type: 'hello', protocol: 1, version: '1.0.0', shapes: ['tail'] });
    await link.next('welcome');

    // Heartbeats on the first server keep the node online for the second server's scheduler.
    clock.advance(DELAY_MS - 1_000);
    link.send({ type: 'heartbeat' });
    await link.next('heartbeat_ack');
    // The heartbeat is recorded after its ack: wait until the node reads as seen then.
    const heardAt = clock.now().toISOString();
    const seen = await eventually(
      async () =>
        (
          (await send(`${second.url}/v1/profiles/${profileId}/nodes/${node.id}`, { headers: owner.auth }))
            .json as { last_seen_at: string | null }
        ).last_seen_at,
      (lastSeenAt) => lastSeenAt === heardAt,
    );
    expect(seen).toBe(heardAt);
    clock.advance(2_000);
    const heard = await other.runOnce();
    expect(heard).toEqual({ offline: 0, back: 0, mails: 0 });

    // No heartbeat for longer than the delay: offline, though the link is still open on the first server.
    clock.advance(DELAY_MS);
    expect(await other.runOnce()).toEqual({ offline: 1, back: 0, mails: 1 });
    expect(await other.runOnce()).toEqual({ offline: 0, back: 0, mails: 0 });
    // The first server still holds the link: its run records it heard, and the node is back.
    expect(await holder.runOnce()).toEqual({ offline: 0, back: 1, mails: 1 });
    expect(await other.runOnce()).toEqual({ offline: 0, back: 0, mails: 0 });
    link.close();
  });
});
