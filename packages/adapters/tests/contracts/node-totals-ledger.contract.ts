import type { CountGrowth, NodeTotalsLedger, ReportedCount } from '@svc/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ContractStorage, StoreUnderTest } from '../support/every-storage.js';

const H0 = new Date('2026-11-22T10:00:00Z');
const H1 = new Date('2026-11-22T11:00:00Z');

/**
 * The behaviour every NodeTotalsLedger must have (node hourly totals, spec 4.6 rule 1): a report hands `write`
 * only what grew since the node's last report of the same run, records the counts only once `write`
 * succeeded (a failed write is sent again and counted once), and forgets hours before a time, a few at a time.
 */
export function runNodeTotalsLedgerContract(storage: ContractStorage): void {
  let engine: StoreUnderTest;
  let ledger: NodeTotalsLedger;
  /** Settles a report and answers what it handed to `write` (null when `write` was not called). */
  const settle = async (nodeId: string, run: string, counts: ReportedCount[]) => {
    let written: CountGrowth[] | null = null;
    await ledger.settle(nodeId, run, counts, async (growth) => {
      written = growth;
    });
    return written;
  };

  beforeAll(async () => {
    engine = await storage.open();
    ledger = engine.nodeTotalsLedger;
  }, 60_000);
  afterAll(async () => engine?.dispose());

  it('hands over what grew since the run’s last report, nothing for a report sent again', async () => {
    const nodeId = crypto.randomUUID();
    const report: ReportedCount[] = [
      { hour: H0, status: 'allowed', count: 5 },
      { hour: H0, status: 'blocked', count: 2 },
    ];
    expect(await settle(nodeId, 'r1', report)).toEqual([
      { hour: H0, status: 'allowed', growth: 5 },
      { hour: H0, status: 'blocked', growth: 2 },
    ]);
    expect(await settle(nodeId, 'r1', report)).toBeNull();
    expect(
      await settle(nodeId, 'r1', [
        { hour: H0, status: 'allowed', count: 8 },
        { hour: H0, status: 'blocked', count: 2 },
        { hour: H1, status: 'allowed', count: 1 },
      ]),
    ).toEqual([
      { hour: H0, status: 'allowed', growth: 3 },
      { hour: H1, status: 'allowed', growth: 1 },
    ]);
    // Another run of the node (it restarted) counts from zero; so does another node.
    expect(await settle(nodeId, 'r2', [{ hour: H0, status: 'allowed', count: 1 }])).toEqual([
      { hour: H0, status: 'allowed', growth: 1 },
    ]);
    expect(await settle(crypto.randomUUID(), 'r1', [{ hour: H0, status: 'allowed', count: 4 }])).toEqual([
      { hour: H0, status: 'allowed', growth: 4 },
    ]);
  });

  it('records nothing when the write fails, so the report sent again is counted once', async () => {
    const nodeId = crypto.randomUUID();
    const report: ReportedCount[] = [{ hour: H0, status: 'error', count: 3 }];
    await expect(
      ledger.settle(nodeId, 'r1', report, async () => {
        throw new Error('columnar store out of reach');
      }),
    ).rejects.toThrow('columnar store out of reach');
    expect(await settle(nodeId, 'r1', report)).toEqual([{ hour: H0, status: 'error', growth: 3 }]);
    expect(await settle(nodeId, 'r1', report)).toBeNull();
  });

  it('forgets the counts of hours before a time, up to a limit at a time', async () => {
    // Hours of their own, a day before the other tests': only these are before the time.
    const [old, kept] = [new Date('2026-11-21T10:00:00Z'), new Date('2026-11-21T11:00:00Z')];
    const nodeId = crypto.randomUUID();
    await settle(nodeId, 'r1', [
      { hour: old, status: 'allowed', count: 1 },
      { hour: old, status: 'blocked', count: 1 },
      { hour: kept, status: 'allowed', count: 1 },
    ]);
    expect(await ledger.forgetBefore(kept, 1)).toBe(1);
    expect(await ledger.forgetBefore(kept, 100)).toBe(1);
    expect(await ledger.forgetBefore(kept, 100)).toBe(0);
    // A forgotten hour reported again counts from zero; the hour kept still knows its count.
    expect(
      await settle(nodeId, 'r1', [
        { hour: old, status: 'allowed', count: 1 },
        { hour: kept, status: 'allowed', count: 1 },
      ]),
    ).toEqual([{ hour: old, status: 'allowed', growth: 1 }]);
  });
}
