import { type NodeAlertScheduler, NodeAlertSchedulerToken, type RunningServer } from '@svc/http-server';
import type { ManualClock } from '@svc/testing/clock';
import { postgresServerSkipReason } from '@svc/testing/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiCluster, startCluster } from '../../support/api-cluster.js';
import { eventually } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { openLink } from './link-client.js';

const DELAY_MS = 600_000;

/**
 * Node presence across two API servers on one PostgreSQL database (spec 8): the server holding a node's link
 * records its heartbeats, so the other server's scheduler does not read the node offline; a link no server
 * hears from any more (its server died without closing it) reads offline after the delay; and the server that
 * does hold the link sees it back.
 */
describe.skipIf(postgresServerSkipReason !== undefined)('node alerts across API servers (spec 8)', () => {
  let cluster: ApiCluster;
  let servers: RunningServer[] = [];
  let clock: ManualClock;
  let owner: TestAccount;

  beforeAll(async () => {
    // Mail may go out through either server; the cluster's harness reads every server's outbox.
    cluster = await startCluster('postgres', 2);
    servers = cluster.servers;
    clock = cluster.harness.clock;
    const harness = cluster.harness;
    owner = await createAccount(harness);
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
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
