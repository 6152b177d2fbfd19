import { enrolNode, LogBatchRejectedError, MemoryCredentialStore, NodeAgent } from '@svc/node-agent-kit';
import { describe, expect, it } from 'vitest';
import { send } from '../../support/http.js';
import { HOUR, type NodeLogsFixture } from './node-logs.fixture.js';

/** Log batches from a node, stored by log destination (spec 1.6, 2.3). */
export function nodeLogBatches(fx: NodeLogsFixture): void {
  const { agents, createProfile, enrolmentCode, enrol, connect, disconnect, logs, nodeRow, batchAck } = fx;
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
      const owners = await send(`${fx.api.url}/v1/profiles/${profileId}/analytics/top_owners`, {
        headers: fx.owner.auth,
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
      const old = nodeRow({ ts: new Date(fx.api.clock.now().getTime() - 400 * 24 * HOUR).toISOString() });
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
      const refusals = (fx.api.logLines ?? []).filter((line) => line.msg === 'refused a node log row');
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
        baseUrl: fx.api.url,
        enrolmentCode: await enrolmentCode(both),
        version: '1.0.0',
        shapes: ['tail'],
        store,
      });
      const warnings: Record<string, unknown>[] = [];
      const agent = new NodeAgent({
        baseUrl: fx.api.url,
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
}
