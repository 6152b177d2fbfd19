import { simulateOperation } from '@svc/cli/simulate-operation';
import { LOG_BATCH_LEDGER_DAYS } from '@svc/domain';
import { type NodeLogHoldScheduler, NodeLogHoldSchedulerToken } from '@svc/http-server';
import { enrolNode, LogBatchRejectedError, MemoryCredentialStore, NodeAgent } from '@svc/node-agent-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { openEventStream } from '../query-log/event-stream-reader.js';
import { type LinkMessage, openLink, type TestLink } from './link-client.js';

const HOUR = 3_600_000;

type Destination = 'self-hosted' | 'both' | 'cloud';

interface HeldEntry {
  seq: string;
  row: { ts: string; row_id: string; qname: string };
}

/** The Postgres pool of a running engine-backed API. */
type Pool = { query<T>(sql: string, values: unknown[]): Promise<{ rows: T[] }> };

/**
 * Node log batches and the offline hold through HTTP and a real WebSocket (spec 1.6, 2.3 node_queue_hours and
 * log_destination, 2.11, 4.6, 6.1; docs/node-link-protocol.md): batches of `both` profiles stored once and
 * read back through GET …/logs, bad rows refused one by one and long answers cut, edge rows held while a self-hosted profile's node
 * is offline and delivered in order exactly once on reconnect, node_queue_hours 0 and expiry, the kit's
 * `onHeldLogs`, and the live stream's `partial` event while the node reconnects.
 */
export function runNodeLogsSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`node log batches and offline hold on ${storage} (2.3, 6.1)`, () => {
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

    describe('log batches (1.6, 2.3 log_destination)', () => {
      it('stores a both profile’s batch once, after the insert, and reads it like cloud rows (2.11)', async () => {
        const profileId = await createProfile('both');
        const { nodeId, token } = await enrol(profileId);
        let link = await connect(token);
        const rows = [
          nodeRow(),
          nodeRow({
            qname: 'ads.example.',
            status: 'blocked',
            rcode: 3,
            reason_list_id: 3,
            reason_list_name: 'Ad list',
            answer_ips: [],
          }),
        ];
        expect(await batchAck(link, 'batch-1', rows)).toEqual({
          type: 'log_batch_ack',
          id: 'batch-1',
          accepted: 2,
          outcome: 'stored',
        });
        const stored = await logs(profileId);
        expect(stored.source).toBe('columnar');
        const names = stored.columns.map((column) => column.name);
        const cell = (row: unknown[], name: string) => row[names.indexOf(name)];
        expect(stored.rows).toHaveLength(2);
        for (const row of stored.rows) {
          expect(cell(row, 'node')).toBe(nodeId);
          expect(cell(row, 'pop')).toBe('node');
        }
        const blocked = stored.rows.find((row) => cell(row, 'status') === 'blocked') ?? [];
        expect([
          cell(blocked, 'reason'),
          cell(blocked, 'reason_code'),
          cell(blocked, 'ede_code'),
          cell(blocked, 'ede_text'),
        ]).toEqual(['Ad list', 'list', 17, 'Ad list']);
        const owners = await send(`${api.url}/v1/profiles/${profileId}/analytics/top_owners`, {
          headers: owner.auth,
        });
        expect(owners.status, owners.text).toBe(200);
        expect((owners.json as { rows: unknown[][] }).rows).toEqual([['google', 1]]);

        // The same batch again on the same link, then after a reconnect (its acknowledgement lost).
        expect(await batchAck(link, 'batch-1', rows)).toMatchObject({ accepted: 2, outcome: 'duplicate' });
        await disconnect(link, nodeId);
        link = await connect(token);
        expect(await batchAck(link, 'batch-1', rows)).toMatchObject({ accepted: 2, outcome: 'duplicate' });
        expect((await logs(profileId)).rows).toHaveLength(2);
        link.close();
      });

      it('refuses only the bad rows of a batch, stores the others, and logs each refusal (issue 35)', async () => {
        const profileId = await createProfile('both');
        const { nodeId, token } = await enrol(profileId);
        const link = await connect(token);
        const old = nodeRow({ ts: new Date(api.clock.now().getTime() - 400 * 24 * HOUR).toISOString() });
        const rows = [
          nodeRow({ qname: 'first.example.' }),
          nodeRow({ qname: 'not a name!' }),
          nodeRow({ client_ip: 'banana' }),
          nodeRow({ answer_ips: ['142.250.1.1', 'not-an-address'] }),
          nodeRow({ qtype: 'AAAA' }),
          old,
          nodeRow({ qname: '_dmarc.last.example', client_ip: '2001:db8::7' }),
        ];
        const ack = await batchAck(link, 'mixed', rows);
        expect(ack).toEqual({
          type: 'log_batch_ack',
          id: 'mixed',
          accepted: 2,
          outcome: 'stored',
          refused: [
            { index: 1, field: 'qname', reason: expect.stringContaining('DNS name') },
            { index: 2, field: 'client_ip', reason: 'must be an IPv4 or IPv6 address' },
            { index: 3, field: 'answer_ips.1', reason: 'must be an IPv4 or IPv6 address' },
            { index: 4, field: 'qtype', reason: expect.any(String) },
            { index: 5, field: 'ts', reason: expect.stringContaining('retention') },
          ],
        });
        const stored = await logs(profileId);
        const qnameAt = stored.columns.findIndex((column) => column.name === 'qname');
        expect(stored.rows.map((row) => row[qnameAt]).sort()).toEqual([
          '_dmarc.last.example',
          'first.example.',
        ]);
        // Every refusal in the server's log, with the node and why, never the row's data.
        const refusals = (api.logLines ?? []).filter((line) => line.msg === 'refused a node log row');
        expect(refusals.filter((line) => line.batchId === 'mixed')).toEqual(
          [1, 2, 3, 4, 5].map((row) => expect.objectContaining({ level: 40, nodeId, row })),
        );
        expect(JSON.stringify(refusals)).not.toContain('banana');
        // The same batch again is a duplicate: the good rows are not stored twice, the bad ones named again.
        expect(await batchAck(link, 'mixed', rows)).toMatchObject({ accepted: 2, outcome: 'duplicate' });
        expect((await logs(profileId)).rows).toHaveLength(2);
        // A batch of bad rows only stores nothing and settles: nothing in it is worth sending again.
        expect(await batchAck(link, 'all-bad', [nodeRow({ client_ip: 'banana' })])).toMatchObject({
          accepted: 0,
          outcome: 'stored',
          refused: [{ index: 0, field: 'client_ip' }],
        });
        link.close();
      });

      it('stores a row with an answer of 100 A records, cut to the first 64 and counted (issue 35)', async () => {
        const profileId = await createProfile('both');
        const { token } = await enrol(profileId);
        const link = await connect(token);
        const hundred = Array.from({ length: 100 }, (_, index) => `192.0.2.${index + 1}`);
        // As many A records as a 65,535-octet DNS message holds: accepted as well.
        const most = Array.from({ length: 4094 }, (_, index) => `10.0.${index >> 8}.${index & 255}`);
        const ack = await batchAck(link, 'long-answers', [
          nodeRow({ qname: 'many.example', answer_ips: hundred }),
          nodeRow({ qname: 'most.example', answer_ips: most }),
        ]);
        expect(ack).toEqual({
          type: 'log_batch_ack',
          id: 'long-answers',
          accepted: 2,
          outcome: 'stored',
          truncated: 2,
        });
        const stored = await logs(profileId);
        const at = (name: string) => stored.columns.findIndex((column) => column.name === name);
        const many = stored.rows.find((row) => row[at('qname')] === 'many.example') ?? [];
        expect(many[at('answer_ips')]).toEqual(hundred.slice(0, 64));
        link.close();
      });

      it('keeps no node rows in the cloud for a self-hosted profile, and the kit reports refusals', async () => {
        const profileId = await createProfile('self-hosted');
        const { token } = await enrol(profileId);
        const link = await connect(token);
        expect(await batchAck(link, 'kept-nowhere', [nodeRow()])).toMatchObject({
          accepted: 0,
          outcome: 'not_kept',
        });
        link.close();

        const both = await createProfile('both');
        const store = new MemoryCredentialStore();
        await enrolNode({
          baseUrl: api.url,
          enrolmentCode: await enrolmentCode(both),
          version: '1.0.0',
          shapes: ['tail'],
          store,
        });
        const warnings: Record<string, unknown>[] = [];
        const agent = new NodeAgent({
          baseUrl: api.url,
          store,
          version: '1.0.0',
          shapes: ['tail'],
          handler: { answer: async () => ({ columns: [], rows: [], next_cursor: null, partial: false }) },
          logger: { warn: (_message, details) => warnings.push(details) },
        });
        agents.push(agent);
        await agent.start();
        expect(await agent.sendLogBatch([nodeRow(), nodeRow()])).toBe(2);
        // A bad row is refused on its own: logged and counted by the kit, settled, never sent again.
        expect(
          await agent.sendLogBatch([
            nodeRow(),
            nodeRow({ qname: 'not a name!' }),
            nodeRow({ client_ip: 'banana' }),
          ]),
        ).toBe(1);
        expect(agent.metrics.logRows).toEqual({
          sent: 5,
          resent: 0,
          accepted: 3,
          refused: 2,
          truncated: 0,
          rejectedBatches: {},
        });
        expect(warnings).toEqual([
          expect.objectContaining({ row: 1, field: 'qname', reason: expect.stringContaining('DNS name') }),
          expect.objectContaining({ row: 2, field: 'client_ip', reason: 'must be an IPv4 or IPv6 address' }),
        ]);
        const tooLarge = await agent
          .sendLogBatch([nodeRow({ reason_rule: 'x'.repeat(2_000_000) })])
          .catch((error: unknown) => error);
        expect(tooLarge).toBeInstanceOf(LogBatchRejectedError);
        expect(tooLarge).toMatchObject({ reason: 'row_too_large', retryable: false });
        await agent.stop();
      });
    });

    it('stores a kit’s batch once when its link is taken over before the acknowledgement', async () => {
      const profileId = await createProfile('both');
      const store = new MemoryCredentialStore();
      await enrolNode({
        baseUrl: api.url,
        enrolmentCode: await enrolmentCode(profileId),
        version: '1.0.0',
        shapes: ['tail'],
        store,
      });
      const agent = new NodeAgent({
        baseUrl: api.url,
        store,
        version: '1.0.0',
        shapes: ['tail'],
        handler: { answer: async () => ({ columns: [], rows: [], next_cursor: null, partial: false }) },
      });
      agents.push(agent);
      await agent.start();
      const sent = agent.sendLogBatch([nodeRow(), nodeRow()]);
      // A second link of the node replaces the agent's: an acknowledgement sent on the old one is lost, and
      // the agent sends the batch again after it reconnects.
      const intruder = await openLink(api.url, (await store.load())?.nodeToken ?? '');
      intruder.send({ type: 'hello', protocol: 1, version: '1.0.0', shapes: [] });
      await intruder.next('welcome');
      expect(await sent).toBe(2);
      expect((await logs(profileId)).rows).toHaveLength(2);
      intruder.close();
      await agent.stop();
    });

    describe('offline hold (2.3 node_queue_hours)', () => {
      it('delivers what the edge answered while the node was offline, in order, exactly once', async () => {
        const profileId = await createProfile('self-hosted', 2);
        const { nodeId, token } = await enrol(profileId);
        await disconnect(await connect(token), nodeId);

        const summary = await simulate(profileId, 40);
        expect(summary).toMatchObject({ rows_written: 0, rows_held: 40 });
        expect(await heldCount(profileId)).toBe(40);

        // Sent and not acknowledged: the next link gets the same rows again.
        let link = await connect(token);
        const first = (await link.next('held_logs')).rows as HeldEntry[];
        expect(first).toHaveLength(40);
        const seqs = first.map((entry) => BigInt(entry.seq));
        expect(seqs).toEqual([...seqs].sort((a, b) => (a < b ? -1 : 1)));
        const times = first.map((entry) => Date.parse(entry.row.ts));
        expect(times).toEqual([...times].sort((a, b) => a - b));
        await disconnect(link, nodeId);

        link = await connect(token);
        const again = (await link.next('held_logs')).rows as HeldEntry[];
        expect(again).toEqual(first);
        link.send({ type: 'held_logs_ack', seq: first.at(-1)?.seq });
        link.send({ type: 'heartbeat' });
        await link.next('heartbeat_ack');
        for (let attempt = 0; attempt < 200 && (await heldCount(profileId)) > 0; attempt += 1)
          await new Promise((resolve) => setTimeout(resolve, 10));
        expect(await heldCount(profileId)).toBe(0);
        await disconnect(link, nodeId);

        link = await connect(token);
        link.send({ type: 'heartbeat' });
        await link.next('heartbeat_ack');
        expect(await scheduler.runOnce()).toMatchObject({ offered: 0 });
        expect(link.unread().filter((message) => message.type === 'held_logs')).toEqual([]);

        // While the node is online nothing is held.
        expect(await simulate(profileId, 10)).toMatchObject({ rows_held: 0 });
        expect(await heldCount(profileId)).toBe(0);
        link.close();
      });

      it('holds for a both profile besides the cloud rows, and nothing with node_queue_hours 0', async () => {
        const both = await createProfile('both', 1);
        const bothNode = await enrol(both);
        await disconnect(await connect(bothNode.token), bothNode.nodeId);
        expect(await simulate(both, 25)).toMatchObject({ rows_written: 25, rows_held: 25 });
        expect(await heldCount(both)).toBe(25);

        const none = await createProfile('self-hosted', 0);
        const noneNode = await enrol(none);
        await disconnect(await connect(noneNode.token), noneNode.nodeId);
        expect(await simulate(none, 25)).toMatchObject({ rows_written: 0, rows_held: 0 });
        expect(await heldCount(none)).toBe(0);
        const link = await connect(noneNode.token);
        link.send({ type: 'heartbeat' });
        await link.next('heartbeat_ack');
        expect(link.unread().filter((message) => message.type === 'held_logs')).toEqual([]);
        link.close();
      });

      it('drops held rows once node_queue_hours have passed', async () => {
        const profileId = await createProfile('self-hosted', 1);
        const { nodeId, token } = await enrol(profileId);
        await disconnect(await connect(token), nodeId);
        expect(await simulate(profileId, 30)).toMatchObject({ rows_held: 30 });

        api.clock.advance(HOUR - 1000);
        await scheduler.runOnce();
        expect(await heldCount(profileId)).toBe(30);
        api.clock.advance(1000);
        const run = await scheduler.runOnce();
        expect(run.expired).toBeGreaterThanOrEqual(30);
        expect(await heldCount(profileId)).toBe(0);

        const link = await connect(token);
        link.send({ type: 'heartbeat' });
        await link.next('heartbeat_ack');
        expect(link.unread().filter((message) => message.type === 'held_logs')).toEqual([]);
        link.close();
      });

      it('hands held rows to the kit’s onHeldLogs and acknowledges them when it resolves', async () => {
        const profileId = await createProfile('self-hosted', 3);
        const store = new MemoryCredentialStore();
        await enrolNode({
          baseUrl: api.url,
          enrolmentCode: await enrolmentCode(profileId),
          version: '1.0.0',
          shapes: ['tail'],
          store,
        });
        const credentials = await store.load();
        const token = credentials?.nodeToken ?? '';
        await disconnect(await connect(token), credentials?.nodeId ?? '');
        expect(await simulate(profileId, 15)).toMatchObject({ rows_held: 15 });

        const received: Record<string, unknown>[] = [];
        const agent = new NodeAgent({
          baseUrl: api.url,
          store,
          version: '1.0.0',
          shapes: ['tail'],
          handler: { answer: async () => ({ columns: [], rows: [], next_cursor: null, partial: false }) },
          onHeldLogs: (rows) => {
            received.push(...rows);
          },
        });
        agents.push(agent);
        await agent.start();
        for (let attempt = 0; attempt < 300 && (await heldCount(profileId)) > 0; attempt += 1)
          await new Promise((resolve) => setTimeout(resolve, 10));
        expect(await heldCount(profileId)).toBe(0);
        expect(received).toHaveLength(15);
        expect(received[0]).toMatchObject({ transport: expect.any(String), qname: expect.any(String) });
        await agent.stop();
      });
    });

    it('sends one partial event on the live stream while a self-hosted profile’s node reconnects (6.1)', async () => {
      const profileId = await createProfile('self-hosted');
      const store = new MemoryCredentialStore();
      await enrolNode({
        baseUrl: api.url,
        enrolmentCode: await enrolmentCode(profileId),
        version: '1.0.0',
        shapes: ['tail'],
        store,
      });
      /** Each agent answers one row once, then no rows. */
      const agentServing = (qname: string) => {
        let served = false;
        return new NodeAgent({
          baseUrl: api.url,
          store,
          version: '1.0.0',
          shapes: ['tail'],
          handler: {
            answer: async () => {
              const rows = served ? [] : [nodeRow({ qname })];
              served = true;
              return { columns: [], rows: [], log_rows: rows, next_cursor: null, partial: false };
            },
          },
        });
      };
      const firstAgent = agentServing('first.example.');
      agents.push(firstAgent);
      await firstAgent.start();
      const stream = await openEventStream(`${api.url}/v1/profiles/${profileId}/logs/stream`, owner.auth);
      expect(stream.status).toBe(200);
      const rowsEvent = await stream.next();
      expect(rowsEvent?.event).toBe('rows');
      expect(rowsEvent?.data).toContain('first.example.');

      await firstAgent.stop();
      const partial = await stream.next();
      expect(partial?.event).toBe('partial');
      expect(JSON.parse(partial?.data ?? '{}')).toEqual({
        partial: true,
        partial_reason: 'node_reconnecting',
      });

      const secondAgent = agentServing('second.example.');
      agents.push(secondAgent);
      await secondAgent.start();
      // Polls during the reconnection stayed partial: no second partial event comes before the rows.
      const next = await stream.next();
      expect(next?.event).toBe('rows');
      expect(next?.data).toContain('second.example.');
      stream.close();
      await secondAgent.stop();
    });

    // Last: it moves the clock a week on.
    it('forgets stored batches after LOG_BATCH_LEDGER_DAYS, and only those', async () => {
      const profileId = await createProfile('both');
      const { nodeId, token } = await enrol(profileId);
      const link = await connect(token);
      expect(await batchAck(link, 'kept-a-week', [nodeRow()])).toMatchObject({ outcome: 'stored' });
      const ledgerCount = async () =>
        (
          await pool.query<{ count: number }>(
            'SELECT count(*)::int AS count FROM node_log_batches WHERE node_id = $1',
            [nodeId],
          )
        ).rows[0]?.count ?? -1;
      api.clock.advance(LOG_BATCH_LEDGER_DAYS * 24 * HOUR - 1000);
      // Batches of the earlier tests, stored before this one, may be forgotten already; this one is kept.
      await scheduler.runOnce();
      expect(await ledgerCount()).toBe(1);
      api.clock.advance(2000);
      expect((await scheduler.runOnce()).forgotten).toBeGreaterThanOrEqual(1);
      expect(await ledgerCount()).toBe(0);
      link.close();
    });
  });
}
