import { simulateOperation } from '@svc/cli/simulate-operation';
import { type NodeLogHoldScheduler, NodeLogHoldSchedulerToken } from '@svc/http-server';
import type { NodeAgent } from '@svc/node-agent-kit';
import { afterAll, beforeAll, expect } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { type LinkMessage, openLink, type TestLink } from './link-client.js';

export const HOUR = 3_600_000;

export type Destination = 'self-hosted' | 'both' | 'cloud';

export interface HeldEntry {
  seq: string;
  row: { ts: string; row_id: string; qname: string };
}

/** The Postgres pool of a running engine-backed API. */
export type Pool = { query<T>(sql: string, values: unknown[]): Promise<{ rows: T[] }> };

/**
 * Starts the server on `storage` once for the suite, with an owner, and the node-kit calls every behaviour of
 * the node logs uses: enrolling, connecting, sending simulated batches and reading what was stored.
 */
export function useNodeLogsFixture(storage: HarnessStorage) {
  let api: ApiHarness;
  let owner: TestAccount;
  let pool: Pool;
  let scheduler: NodeLogHoldScheduler;
  const agents: NodeAgent[] = [];

  beforeAll(async () => {
    api = await startApi(storage);
    owner = await createAccount(api);
    pool = (await api.container.getAsync<{ pool: Pool }>(Symbol.for('svc.PostgresDatabase'))).pool;
    scheduler = await api.container.getAsync<NodeLogHoldScheduler>(NodeLogHoldSchedulerToken);
  }, 60_000);

  afterAll(async () => {
    for (const agent of agents) await agent.stop();
    await api?.close();
  });

  const createProfile = async (destination: Destination, queueHours = 2): Promise<string> => {
    const answer = await send(`${api.url}/v1/profiles`, {
      method: 'POST',
      headers: owner.auth,
      body: { settings: { log_destination: destination, node_queue_hours: queueHours } },
    });
    expect(answer.status, answer.text).toBe(201);
    return (answer.json as { id: string }).id;
  };

  const enrolmentCode = async (profileId: string): Promise<string> => {
    const answer = await send(`${api.url}/v1/profiles/${profileId}/nodes`, {
      method: 'POST',
      headers: owner.auth,
      body: { name: 'logs' },
    });
    return (answer.json as { enrolment_code: string }).enrolment_code;
  };

  const enrol = async (profileId: string): Promise<{ nodeId: string; token: string }> => {
    const answer = await send(`${api.url}/v1/nodes/enrol`, {
      method: 'POST',
      body: { enrolment_code: await enrolmentCode(profileId) },
    });
    const body = answer.json as { node: { id: string }; node_token: string };
    return { nodeId: body.node.id, token: body.node_token };
  };

  const connect = async (token: string): Promise<TestLink> => {
    const link = await openLink(api.url, token);
    link.send({ type: 'hello', protocol: 1, version: '1.0.0', shapes: ['tail'] });
    await link.next('welcome');
    return link;
  };

  /** Closes the node's link and waits until the server recorded the close (the node reads offline). */
  const disconnect = async (link: TestLink, nodeId: string): Promise<void> => {
    link.close();
    await link.closed;
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const open = await pool.query<{ open: boolean }>(
        'SELECT link_id IS NOT NULL AS open FROM nodes WHERE id = $1',
        [nodeId],
      );
      if (open.rows[0]?.open === false) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('the link close was not recorded');
  };

  const heldCount = async (profileId: string): Promise<number> =>
    (
      await pool.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM node_log_hold WHERE profile_id = $1',
        [profileId],
      )
    ).rows[0]?.count ?? -1;

  const simulate = (profileId: string, queries: number) =>
    simulateOperation(api.container, { profile: profileId, queries, days: 1, devices: 2, seed: 5 });

  const logs = async (profileId: string) => {
    const answer = await send(`${api.url}/v1/profiles/${profileId}/logs?limit=1000`, {
      headers: owner.auth,
    });
    expect(answer.status, answer.text).toBe(200);
    return answer.json as {
      source: string;
      columns: { name: string }[];
      rows: unknown[][];
    };
  };

  const nodeRow = (overrides: Record<string, unknown> = {}) => ({
    ts: new Date(api.clock.now().getTime() - 60_000).toISOString(),
    row_id: String(Math.floor(Math.random() * 1e15)),
    transport: 'doh',
    qname: 'www.google.com.',
    qtype: 1,
    status: 'allowed',
    rcode: 0,
    answer_ips: ['142.250.1.1'],
    ...overrides,
  });

  const batchAck = async (link: TestLink, id: string, rows: unknown[]): Promise<LinkMessage> => {
    link.send({ type: 'log_batch', id, rows });
    const ack = await link.next('log_batch_ack');
    expect(ack.id).toBe(id);
    return ack;
  };
  return {
    get api(): ApiHarness {
      return api;
    },
    get owner(): TestAccount {
      return owner;
    },
    get pool(): Pool {
      return pool;
    },
    get scheduler(): NodeLogHoldScheduler {
      return scheduler;
    },
    agents,
    createProfile,
    enrolmentCode,
    enrol,
    connect,
    disconnect,
    heldCount,
    simulate,
    logs,
    nodeRow,
    batchAck,
  };
}

/** What every behaviour of the suite reads: the running server, its accounts and the helpers above. */
export type NodeLogsFixture = ReturnType<typeof useNodeLogsFixture>;
