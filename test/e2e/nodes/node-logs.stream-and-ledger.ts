import { LOG_BATCH_LEDGER_DAYS } from '@svc/domain';
import { enrolNode, MemoryCredentialStore, NodeAgent } from '@svc/node-agent-kit';
import { expect, it } from 'vitest';
import { openEventStream } from '../query-log/event-stream-reader.js';
import { HOUR, type NodeLogsFixture } from './node-logs.fixture.js';

/** The live stream while a node reconnects (spec 6.1), and the batch ledger's retention. */
export function nodeLogStreamAndLedger(fx: NodeLogsFixture): void {
  const { agents, createProfile, enrolmentCode, enrol, connect, nodeRow, batchAck } = fx;
  it('sends one partial event on the live stream while a self-hosted profile’s node reconnects (6.1)', async () => {
    const profileId = await createProfile('self-hosted');
    const store = new MemoryCredentialStore();
    await enrolNode({
      baseUrl: fx.api.url,
      enrolmentCode: await enrolmentCode(profileId),
      version: '1.0.0',
      shapes: ['tail'],
      store,
    });
    /** Each agent answers one row once, then no rows. */
    const agentServing = (qname: string) => {
      let served = false;
      return new NodeAgent({
        baseUrl: fx.api.url,
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
    const stream = await openEventStream(`${fx.api.url}/v1/profiles/${profileId}/logs/stream`, fx.owner.auth);
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

  it('forgets stored batches after LOG_BATCH_LEDGER_DAYS, and only those', async () => {
    const profileId = await createProfile('both');
    const { nodeId, token } = await enrol(profileId);
    const link = await connect(token);
    expect(await batchAck(link, 'kept-a-week', [nodeRow()])).toMatchObject({ outcome: 'stored' });
    const ledgerCount = async () =>
      (
        await fx.pool.query<{ count: number }>(
          'SELECT count(*)::int AS count FROM node_log_batches WHERE node_id = $1',
          [nodeId],
        )
      ).rows[0]?.count ?? -1;
    fx.api.clock.advance(LOG_BATCH_LEDGER_DAYS * 24 * HOUR - 1000);
    // Batches of the earlier tests, stored before this one, may be forgotten already; this one is kept.
    await fx.scheduler.runOnce();
    expect(await ledgerCount()).toBe(1);
    fx.api.clock.advance(2000);
    expect((await fx.scheduler.runOnce()).forgotten).toBeGreaterThanOrEqual(1);
    expect(await ledgerCount()).toBe(0);
    link.close();
  });
}
