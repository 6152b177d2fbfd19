import { enrolNode, MemoryCredentialStore, NodeAgent } from '@svc/node-agent-kit';
import { describe, expect, it } from 'vitest';
import { openLink } from './link-client.js';
import { type HeldEntry, HOUR, type NodeLogsFixture } from './node-logs.fixture.js';

/** Batches across a link takeover, and the offline hold (spec 2.3 node_queue_hours). */
export function nodeLogOfflineHold(fx: NodeLogsFixture): void {
  const {
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
  } = fx;
  it('stores a kit’s batch once when its link is taken over before the acknowledgement', async () => {
    const profileId = await createProfile('both');
    const store = new MemoryCredentialStore();
    await enrolNode({
      baseUrl: fx.api.url,
      enrolmentCode: await enrolmentCode(profileId),
      version: '1.0.0',
      shapes: ['tail'],
      store,
    });
    const agent = new NodeAgent({
      baseUrl: fx.api.url,
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
    const intruder = await openLink(fx.api.url, (await store.load())?.nodeToken ?? '');
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
      expect(await fx.scheduler.runOnce()).toMatchObject({ offered: 0 });
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

      fx.api.clock.advance(HOUR - 1000);
      await fx.scheduler.runOnce();
      expect(await heldCount(profileId)).toBe(30);
      fx.api.clock.advance(1000);
      const run = await fx.scheduler.runOnce();
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
        baseUrl: fx.api.url,
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
        baseUrl: fx.api.url,
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
}
