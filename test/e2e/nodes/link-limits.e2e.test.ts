import { NODE_LINK_MAX_MESSAGE_BYTES, NodeLinkCloseCodes } from '@svc/domain';
import { enrolNode, MemoryCredentialStore, NodeAgent, type NodeAgentLogger } from '@svc/node-agent-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { openLink, type TestLink } from './link-client.js';

/** The smallest budget the settings take: twice the largest message a second, ten messages a second. */
const BYTES_PER_SECOND = 2 * NODE_LINK_MAX_MESSAGE_BYTES;
const MESSAGES_PER_SECOND = 10;

/** The Postgres pool of a running engine-backed API. */
type Pool = { query<T>(sql: string, values: unknown[]): Promise<{ rows: T[] }> };

/** A `log_batch` message of exactly `bytes` bytes (one row padded with a field the server refuses). */
function batchOfSize(id: string, bytes: number): string {
  const empty = JSON.stringify({ type: 'log_batch', id, rows: [{ pad: '' }] });
  return JSON.stringify({ type: 'log_batch', id, rows: [{ pad: 'x'.repeat(bytes - empty.length) }] });
}

/**
 * The node link's size cap and budget (issue 27, finding 9; docs/node-link-protocol.md "Sizes and budget"):
 * messages up to 1 MiB, a byte and a message budget per link a second, over either the link is closed with
 * 4005; the kit splits a larger batch into messages that fit and paces them to the budget the welcome
 * announces.
 */
describe('node link message size and budget', () => {
  let api: ApiHarness;
  let owner: TestAccount;
  let pool: Pool;

  beforeAll(async () => {
    api = await startApi('pglite', {
      SVC_NODE_LINK_BYTES_PER_SECOND: String(BYTES_PER_SECOND),
      SVC_NODE_LINK_MESSAGES_PER_SECOND: String(MESSAGES_PER_SECOND),
    });
    owner = await createAccount(api);
    pool = (await api.container.getAsync<{ pool: Pool }>(Symbol.for('svc.PostgresDatabase'))).pool;
  }, 60_000);
  afterAll(async () => {
    await api?.close();
  });

  const profile = async (destination: 'both' | 'self-hosted'): Promise<string> => {
    const created = await send(`${api.url}/v1/profiles`, {
      method: 'POST',
      headers: owner.auth,
      body: { settings: { log_destination: destination } },
    });
    return (created.json as { id: string }).id;
  };
  const enrolmentCode = async (profileId: string): Promise<string> => {
    const created = await send(`${api.url}/v1/profiles/${profileId}/nodes`, {
      method: 'POST',
      headers: owner.auth,
      body: { name: 'limits' },
    });
    return (created.json as { enrolment_code: string }).enrolment_code;
  };
  const welcomedLink = async (): Promise<TestLink> => {
    const enrolled = await send(`${api.url}/v1/nodes/enrol`, {
      method: 'POST',
      body: { enrolment_code: await enrolmentCode(await profile('self-hosted')) },
    });
    const link = await openLink(api.url, (enrolled.json as { node_token: string }).node_token);
    link.send({ type: 'hello', protocol: 1, version: '1.0.0', shapes: [] });
    return link;
  };

  it('announces the largest message and the budget in the welcome', async () => {
    const link = await welcomedLink();
    expect(await link.next('welcome')).toMatchObject({
      max_message_bytes: NODE_LINK_MAX_MESSAGE_BYTES,
      budget: { bytes_per_s: BYTES_PER_SECOND, messages_per_s: MESSAGES_PER_SECOND },
    });
    link.close();
  });

  it('takes a message of exactly 1 MiB and closes the link with 1009 on one of 1 MiB + 1', async () => {
    const link = await welcomedLink();
    await link.next('welcome');
    link.socket.send(batchOfSize('exactly-the-cap', NODE_LINK_MAX_MESSAGE_BYTES));
    // Answered (its row is refused, the message is not): the link stays.
    expect(await link.next('log_batch_ack')).toMatchObject({
      id: 'exactly-the-cap',
      accepted: 0,
      refused: [{ index: 0 }],
    });
    link.socket.send(batchOfSize('one-byte-over', NODE_LINK_MAX_MESSAGE_BYTES + 1));
    expect(await link.closed).toBe(NodeLinkCloseCodes.messageTooBig);
    expect(link.unread().filter((message) => message.type === 'log_batch_ack')).toEqual([]);
  });

  it('closes a link sending more messages a second than its budget with 4005', async () => {
    const link = await welcomedLink();
    await link.next('welcome');
    const flood = 5 * MESSAGES_PER_SECOND;
    for (let index = 0; index < flood; index += 1) link.send({ type: 'heartbeat' });
    expect(await link.closed).toBe(NodeLinkCloseCodes.overBudget);
    // The server stopped answering at the first heartbeat over the budget (the hello spent from it too).
    const answered = link.unread().filter((message) => message.type === 'heartbeat_ack').length;
    expect(answered).toBeGreaterThan(0);
    expect(answered).toBeLessThan(flood);
  });

  it('closes a link sending more bytes a second than its budget with 4005', async () => {
    const link = await welcomedLink();
    await link.next('welcome');
    for (let index = 0; index < 3; index += 1) link.socket.send(batchOfSize(`big-${index}`, 900_000));
    expect(await link.closed).toBe(NodeLinkCloseCodes.overBudget);
  });

  it('the kit splits a batch larger than one message into parts that fit, paced, and all are stored', async () => {
    const profileId = await profile('both');
    const store = new MemoryCredentialStore();
    await enrolNode({
      baseUrl: api.url,
      enrolmentCode: await enrolmentCode(profileId),
      version: '1.0.0',
      shapes: [],
      store,
    });
    const warnings: string[] = [];
    const logger: NodeAgentLogger = {
      warn: (message, details) => warnings.push(`${message} ${JSON.stringify(details)}`),
    };
    const agent = new NodeAgent({
      baseUrl: api.url,
      store,
      version: '1.0.0',
      shapes: [],
      handler: { answer: async () => ({ columns: [], rows: [], next_cursor: null, partial: false }) },
      logger,
    });
    await agent.start();
    try {
      const ts = new Date(api.clock.now().getTime() - 60_000).toISOString();
      const rows = Array.from({ length: 12_000 }, (_, index) => ({
        ts,
        row_id: String(index + 1),
        transport: 'doh',
        qname: `host-${index}.a-rather-long-subdomain-name-for-size.example-of-a-node-log.example.`,
        qtype: 1,
        status: 'allowed',
        rcode: 0,
        answer_ips: ['192.0.2.1', '192.0.2.2', '2001:db8::1'],
      }));
      expect(Buffer.byteLength(JSON.stringify(rows))).toBeGreaterThan(2 * NODE_LINK_MAX_MESSAGE_BYTES);
      expect(await agent.sendLogBatch(rows, { id: 'large-batch' })).toBe(rows.length);
      expect(agent.connected).toBe(true);
      // Stored as parts, each under the cap and the 10,000-row limit, none closed for size or budget.
      const ledger = async () =>
        (
          await pool.query<{ batch_id: string; rows: number; stored: boolean }>(
            `SELECT batch_id, rows, stored_at IS NOT NULL AS stored FROM node_log_batches
              WHERE node_id IN (SELECT id FROM nodes WHERE profile_id = $1) ORDER BY batch_id`,
            [profileId],
          )
        ).rows;
      const parts = await ledger();
      expect(parts.map((part) => part.batch_id)).toEqual(['large-batch.0', 'large-batch.1', 'large-batch.2']);
      expect(parts.every((part) => part.stored && part.rows <= 10_000)).toBe(true);
      expect(parts.reduce((total, part) => total + part.rows, 0)).toBe(rows.length);
      expect(warnings).toEqual([]);
      // Sent again with the same id, every part is a duplicate: stored once.
      expect(await agent.sendLogBatch(rows, { id: 'large-batch' })).toBe(rows.length);
      expect(await ledger()).toEqual(parts);
    } finally {
      await agent.stop();
    }
  }, 60_000);
});
