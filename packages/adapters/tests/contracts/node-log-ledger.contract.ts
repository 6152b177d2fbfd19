import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ContractStorage, StoreUnderTest } from '../support/every-storage.js';
import { nodeRecord } from '../support/node-records.js';
import { profileRecord } from '../support/profile-records.js';

const T0 = new Date('2026-11-22T10:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const LEASE = 5 * 60_000;

/**
 * The behaviour every NodeLogBatchLedger must have (spec 4.13, node log batches): a batch is claimed by one
 * writer, reported stored with its rows once marked, in progress while a fresh claim holds it, taken over once
 * that claim is stale, claimable again once released, and forgotten some time after it was stored.
 */
export function runNodeLogLedgerContract(storage: ContractStorage): void {
  let engine: StoreUnderTest;
  const orgId = crypto.randomUUID();
  let n = 0;
  /** A node of its own profile: batches are the node's, and go with it. */
  const node = async (): Promise<string> => {
    n += 1;
    const profile = profileRecord(`lg${String(n).padStart(4, '0')}`, orgId, T0);
    const record = nodeRecord(orgId, profile.id, 'enrolled', T0);
    await engine.uow.run(async (tx) => {
      expect(await tx.profiles.insert(profile)).toBe(true);
      await tx.nodes.insert(record);
    });
    return record.id;
  };

  beforeAll(async () => {
    engine = await storage.open();
    await engine.createOrganisation(orgId);
  }, 60_000);
  afterAll(async () => engine?.dispose());

  it('claims a new batch once, says it is in progress meanwhile, and stored with its rows once marked', async () => {
    const ledger = engine.nodeLogLedger;
    const nodeId = await node();
    expect(await ledger.claim(nodeId, 'b1', 10, at(0), at(-LEASE))).toEqual({ state: 'claimed' });
    expect(await ledger.claim(nodeId, 'b1', 10, at(1_000), at(1_000 - LEASE))).toEqual({
      state: 'in_progress',
    });
    // The same batch id of another node is another batch.
    expect(await ledger.claim(await node(), 'b1', 3, at(1_000), at(1_000 - LEASE))).toEqual({
      state: 'claimed',
    });
    await ledger.markStored(nodeId, 'b1', at(2_000));
    expect(await ledger.claim(nodeId, 'b1', 99, at(3_000), at(3_000 + LEASE))).toEqual({
      state: 'stored',
      rows: 10,
    });
  });

  it('lets another writer take over a claim that went stale, with its own row count', async () => {
    const ledger = engine.nodeLogLedger;
    const nodeId = await node();
    await ledger.claim(nodeId, 'stale', 5, at(0), at(-LEASE));
    expect(await ledger.claim(nodeId, 'stale', 7, at(LEASE - 1), at(-1))).toEqual({ state: 'in_progress' });
    expect(await ledger.claim(nodeId, 'stale', 7, at(LEASE), at(0))).toEqual({ state: 'claimed' });
    await ledger.markStored(nodeId, 'stale', at(LEASE + 1));
    expect(await ledger.claim(nodeId, 'stale', 1, at(LEASE + 2), at(LEASE + 2))).toEqual({
      state: 'stored',
      rows: 7,
    });
  });

  it('makes a released claim claimable again, but never releases a stored batch', async () => {
    const ledger = engine.nodeLogLedger;
    const nodeId = await node();
    await ledger.claim(nodeId, 'failed', 4, at(0), at(-LEASE));
    await ledger.release(nodeId, 'failed');
    expect(await ledger.claim(nodeId, 'failed', 4, at(1), at(1 - LEASE))).toEqual({ state: 'claimed' });
    await ledger.markStored(nodeId, 'failed', at(2));
    await ledger.release(nodeId, 'failed');
    expect(await ledger.claim(nodeId, 'failed', 4, at(3), at(3 - LEASE))).toEqual({
      state: 'stored',
      rows: 4,
    });
  });

  it('forgets up to the limit of batches stored before a time, and no claim in progress', async () => {
    const ledger = engine.nodeLogLedger;
    const nodeId = await node();
    const day = 86_400_000;
    const base = 100 * day;
    for (const batch of ['old1', 'old2', 'old3', 'recent', 'open'])
      await ledger.claim(nodeId, batch, 1, at(base), at(base - LEASE));
    for (const batch of ['old1', 'old2', 'old3']) await ledger.markStored(nodeId, batch, at(base));
    await ledger.markStored(nodeId, 'recent', at(base + 2 * day));
    // Earlier tests' batches were stored before `base` too: forget them first.
    while ((await ledger.forgetStored(at(base), 100)) > 0);
    expect(await ledger.forgetStored(at(base + day), 2)).toBe(2);
    expect(await ledger.forgetStored(at(base + day), 2)).toBe(1);
    expect(await ledger.forgetStored(at(base + day), 2)).toBe(0);
    expect(await ledger.claim(nodeId, 'old1', 8, at(base + day), at(base + day - LEASE))).toEqual({
      state: 'claimed',
    });
    expect(await ledger.claim(nodeId, 'recent', 8, at(base + day), at(base + day - LEASE))).toEqual({
      state: 'stored',
      rows: 1,
    });
    expect(await ledger.claim(nodeId, 'open', 8, at(base + day), at(base + day - LEASE))).toEqual({
      state: 'claimed',
    });
  });
}
