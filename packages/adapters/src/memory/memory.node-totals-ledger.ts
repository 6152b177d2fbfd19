import type { CountGrowth, NodeTotalsLedger, ReportedCount } from '@svc/domain';

/** The hourly totals nodes reported, in memory (tests of the service without engines). */
export class MemoryNodeTotalsLedger implements NodeTotalsLedger {
  private readonly counts = new Map<string, { hour: Date; count: number }>();

  async settle(
    nodeId: string,
    run: string,
    counts: readonly ReportedCount[],
    write: (growth: CountGrowth[]) => Promise<void>,
  ): Promise<void> {
    const keyOf = (count: ReportedCount) => `${nodeId} ${run} ${count.hour.toISOString()} ${count.status}`;
    const growth = counts.flatMap((count) => {
      const grown = count.count - (this.counts.get(keyOf(count))?.count ?? 0);
      return grown > 0 ? [{ hour: count.hour, status: count.status, growth: grown }] : [];
    });
    if (growth.length === 0) return;
    await write(growth);
    for (const count of counts) {
      const known = this.counts.get(keyOf(count))?.count ?? 0;
      this.counts.set(keyOf(count), { hour: count.hour, count: Math.max(known, count.count) });
    }
  }

  async forgetBefore(before: Date, limit: number): Promise<number> {
    let forgotten = 0;
    for (const [key, value] of this.counts) {
      if (forgotten >= limit) break;
      if (value.hour < before) {
        this.counts.delete(key);
        forgotten += 1;
      }
    }
    return forgotten;
  }
}
