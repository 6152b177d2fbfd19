import { type NodeLogRow, NodeLogRow as NodeLogRowSchema, type NodeRecord } from '@svc/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ContractStorage, StoreUnderTest } from '../support/every-storage.js';
import { nodeRecord } from '../support/node-records.js';
import { profileRecord } from '../support/profile-records.js';

const T0 = new Date('2026-11-22T10:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const HOUR = 60 * 60 * 1000;

const logRow = (n: number): NodeLogRow =>
  NodeLogRowSchema.parse({
    ts: at(n).toISOString(),
    row_id: String(n),
    transport: 'do53',
    qname: `q${n}.example`,
    qtype: 1,
    status: 'allowed',
    rcode: 0,
  });

/**
 * The behaviour every NodeLogHoldStore must have (spec 2.3 node_queue_hours): a profile's enrolled nodes and
 * which of them hold a link heard lately; rows kept in order until a link claims and acknowledges them or they
 * expire; a claim given up when its link closes or its lease ends.
 */
export function runNodeLogHoldContract(storage: ContractStorage): void {
  let engine: StoreUnderTest;
  let n = 0;
  const orgId = crypto.randomUUID();

  const profile = async (): Promise<string> => {
    n += 1;
    const id = `nh${String(n).padStart(4, '0')}`;
    await engine.uow.run(async (tx) => {
      expect(await tx.profiles.insert(profileRecord(id, orgId, T0))).toBe(true);
    });
    return id;
  };
  const node = async (profileId: string, state: NodeRecord['state']): Promise<string> => {
    const record = nodeRecord(orgId, profileId, state, T0);
    await engine.uow.run((tx) => tx.nodes.insert(record));
    return record.id;
  };

  beforeAll(async () => {
    engine = await storage.open();
    await engine.createOrganisation(orgId);
  }, 60_000);
  afterAll(async () => engine?.dispose());

  it('counts enrolled nodes, and as online those whose open link was heard after the given time', async () => {
    const hold = engine.nodeLogHold;
    const profileId = await profile();
    const first = await node(profileId, 'enrolled');
    const second = await node(profileId, 'enrolled');
    await node(profileId, 'pending');
    expect(await hold.nodesOf(profileId, at(0))).toEqual({ enrolled: 2, online: 0 });
    const link = crypto.randomUUID();
    await hold.linkOpened(first, link, at(1_000));
    expect(await hold.nodesOf(profileId, at(0))).toEqual({ enrolled: 2, online: 1 });
    expect(await hold.nodesOf(profileId, at(1_000))).toEqual({ enrolled: 2, online: 0 });
    // A close of a link the node replaced leaves the newer one open.
    const newer = crypto.randomUUID();
    await hold.linkOpened(first, newer, at(2_000));
    await hold.linkClosed(first, link);
    expect(await hold.nodesOf(profileId, at(0))).toEqual({ enrolled: 2, online: 1 });
    await hold.linkClosed(first, newer);
    expect(await hold.nodesOf(profileId, at(0))).toEqual({ enrolled: 2, online: 0 });
    await hold.linkOpened(second, crypto.randomUUID(), at(3_000));
    expect(await hold.nodesOf(profileId, at(0))).toEqual({ enrolled: 2, online: 1 });
    expect(await hold.nodesOf(await profile(), at(0))).toEqual({ enrolled: 0, online: 0 });
  });

  it('gives held rows to one link in order, up to the limit, and deletes those it acknowledges', async () => {
    const hold = engine.nodeLogHold;
    const profileId = await profile();
    await hold.hold(profileId, [logRow(1), logRow(2)], at(0), at(HOUR));
    await hold.hold(profileId, [logRow(3)], at(1), at(HOUR));
    const link = crypto.randomUUID();
    const claimed = await hold.claim(profileId, link, at(1_000), at(61_000), 2);
    expect(claimed.map((held) => held.row)).toEqual([logRow(1), logRow(2)]);
    const [oldest, next] = claimed;
    if (oldest === undefined || next === undefined) throw new Error('two rows expected');
    expect(BigInt(oldest.seq) < BigInt(next.seq)).toBe(true);
    // Claimed by the link: another link gets only what is left.
    const other = crypto.randomUUID();
    expect((await hold.claim(profileId, other, at(1_000), at(61_000), 10)).map((held) => held.row)).toEqual([
      logRow(3),
    ]);
    expect(await hold.release(profileId, link, next.seq)).toBe(2);
    expect(await hold.release(profileId, link, next.seq)).toBe(0);
    // Acknowledging a row another link holds deletes nothing.
    expect(await hold.release(profileId, link, String(BigInt(next.seq) + 10n))).toBe(0);
  });

  it('gives a link’s claims to the next link once it closes or its claim ends', async () => {
    const hold = engine.nodeLogHold;
    const profileId = await profile();
    await hold.hold(profileId, [logRow(1)], at(0), at(HOUR));
    const first = crypto.randomUUID();
    const second = crypto.randomUUID();
    expect(await hold.claim(profileId, first, at(0), at(60_000), 10)).toHaveLength(1);
    expect(await hold.claim(profileId, second, at(59_999), at(120_000), 10)).toEqual([]);
    expect(await hold.claim(profileId, second, at(60_000), at(120_000), 10)).toHaveLength(1);
    await hold.unclaim(second);
    const third = crypto.randomUUID();
    expect((await hold.claim(profileId, third, at(60_001), at(200_000), 10)).map((held) => held.row)).toEqual(
      [logRow(1)],
    );
  });

  it('names the profiles with unexpired rows nobody claims', async () => {
    const hold = engine.nodeLogHold;
    const waiting = await profile();
    const claimed = await profile();
    const lapsed = await profile();
    const empty = await profile();
    await hold.hold(waiting, [logRow(1)], at(0), at(HOUR));
    await hold.hold(claimed, [logRow(1)], at(0), at(HOUR));
    await hold.hold(lapsed, [logRow(1)], at(0), at(1_000));
    await hold.claim(claimed, crypto.randomUUID(), at(0), at(HOUR), 10);
    const holding = await hold.profilesHolding([waiting, claimed, lapsed, empty], at(2_000));
    expect(holding).toEqual([waiting]);
    expect(await hold.profilesHolding([], at(0))).toEqual([]);
  });

  it('deletes expired rows, at most the limit at a time, and never gives them out', async () => {
    const hold = engine.nodeLogHold;
    const profileId = await profile();
    const base = 1_000 * HOUR;
    await hold.hold(profileId, [logRow(1), logRow(2), logRow(3)], at(base), at(base + HOUR));
    await hold.hold(profileId, [logRow(4)], at(base), at(base + 2 * HOUR));
    expect(
      await hold.claim(profileId, crypto.randomUUID(), at(base + HOUR), at(base + 2 * HOUR), 10),
    ).toEqual([expect.objectContaining({ row: logRow(4) })]);
    // Earlier tests' rows expired long before: expire them first.
    while ((await hold.expire(at(base), 1_000)) > 0);
    expect(await hold.expire(at(base + HOUR), 2)).toBe(2);
    expect(await hold.expire(at(base + HOUR), 2)).toBe(1);
    expect(await hold.expire(at(base + HOUR), 2)).toBe(0);
  });
}
