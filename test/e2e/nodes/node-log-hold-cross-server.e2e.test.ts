import { simulateOperation } from '@svc/cli/simulate-operation';
import { type NodeLogHoldScheduler, NodeLogHoldSchedulerToken, type RunningServer } from '@svc/http-server';
import type { ManualClock } from '@svc/testing/clock';
import { postgresServerSkipReason } from '@svc/testing/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiCluster, startCluster } from '../../support/api-cluster.js';
import { send } from '../../support/http.js';
import { openLink, type TestLink } from './link-client.js';

const HOUR = 3_600_000;

type Pool = { query<T>(sql: string, values: unknown[]): Promise<{ rows: T[] }> };

if (postgresServerSkipReason !== undefined)
  console.log(`skipping the offline hold across API servers: ${postgresServerSkipReason}`);

/**
 * The offline hold with two API servers on one PostgreSQL database (spec 2.3 node_queue_hours): the server
 * playing the edge reads the node's presence from the database whichever server holds its link, the server the
 * node reconnects to delivers what the other held, and both servers' expiry runs together delete each row once.
 */
describe.skipIf(postgresServerSkipReason !== undefined)('offline hold across API servers (2.3)', () => {
  let cluster: ApiCluster;
  let servers: RunningServer[] = [];
  let clock: ManualClock;
  let owner: TestAccount;
  let pool: Pool;

  beforeAll(async () => {
    cluster = await startCluster('postgres', 2);
    servers = cluster.servers;
    clock = cluster.harness.clock;
    const [first] = servers as [RunningServer];
    const harness = cluster.harness;
    owner = await createAccount(harness);
    pool = (await first.container.getAsync<{ pool: Pool }>(Symbol.for('svc.PostgresDatabase'))).pool;
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
  });

  const heldCount = async (profileId: string): Promise<number> =>
    (
      await pool.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM node_log_hold WHERE profile_id = $1',
        [profileId],
      )
    ).rows[0]?.count ?? -1;
  const linkOpen = async (nodeId: string): Promise<boolean> =>
    (
      await pool.query<{ open: boolean }>('SELECT link_id IS NOT NULL AS open FROM nodes WHERE id = $1', [
        nodeId,
      ])
    ).rows[0]?.open ?? false;
  const connect = async (server: RunningServer, token: string): Promise<TestLink> => {
    const link = await openLink(server.url, token);
    link.send({ type: 'hello', protocol: 1, version: '1.0.0', shapes: ['tail'] });
    await link.next('welcome');
    return link;
  };

  it('holds on one server while the node is offline and delivers from the server it reconnects to', async () => {
    const [edge, linked] = servers as [RunningServer, RunningServer];
    const profile = await send(`${edge.url}/v1/profiles`, {
      method: 'POST',
      headers: owner.auth,
      body: { settings: { log_destination: 'self-hosted', node_queue_hours: 1 } },
    });
    const profileId = (profile.json as { id: string }).id;
    const node = await send(`${edge.url}/v1/profiles/${profileId}/nodes`, {
      method: 'POST',
      headers: owner.auth,
      body: { name: 'far' },
    });
    const enrolled = await send(`${edge.url}/v1/nodes/enrol`, {
      method: 'POST',
      body: { enrolment_code: (node.json as { enrolment_code: string }).enrolment_code },
    });
    const { node: enrolledNode, node_token: token } = enrolled.json as {
      node: { id: string };
      node_token: string;
    };
    const simulate = (queries: number) =>
      simulateOperation(edge.container, { profile: profileId, queries, days: 1, devices: 1, seed: 9 });

    // Linked to the other server: online for the edge server too, nothing held.
    let link = await connect(linked, token);
    expect(await simulate(10)).toMatchObject({ rows_held: 0 });
    link.close();
    await link.closed;
    for (let attempt = 0; attempt < 200 && (await linkOpen(enrolledNode.id)); attempt += 1)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await simulate(20)).toMatchObject({ rows_held: 20 });

    link = await connect(linked, token);
    const held = (await link.next('held_logs')).rows as { seq: string }[];
    expect(held).toHaveLength(20);
    link.send({ type: 'held_logs_ack', seq: held.at(-1)?.seq });
    for (let attempt = 0; attempt < 200 && (await heldCount(profileId)) > 0; attempt += 1)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await heldCount(profileId)).toBe(0);
    link.close();
    await link.closed;
    for (let attempt = 0; attempt < 200 && (await linkOpen(enrolledNode.id)); attempt += 1)
      await new Promise((resolve) => setTimeout(resolve, 10));

    // Both servers expire together: every row is deleted once.
    expect(await simulate(30)).toMatchObject({ rows_held: 30 });
    clock.advance(HOUR);
    const runs = await Promise.all(
      servers.map(async (server) =>
        (await server.container.getAsync<NodeLogHoldScheduler>(NodeLogHoldSchedulerToken)).runOnce(),
      ),
    );
    expect(runs.reduce((sum, run) => sum + run.expired, 0)).toBe(30);
    expect(await heldCount(profileId)).toBe(0);
  });
});
