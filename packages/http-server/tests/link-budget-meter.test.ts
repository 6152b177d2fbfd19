import { describe, expect, it } from 'vitest';
import { LinkBudgetMeter } from '../src/links/link-budget-meter.js';

describe(LinkBudgetMeter.name, () => {
  const limits = { bytesPerSecond: 1_000, messagesPerSecond: 4 };

  it('lets a link burst one second of its budget, then refuses the next message', () => {
    const sut = new LinkBudgetMeter(limits, 0);
    expect([1, 2, 3, 4].map(() => sut.spend(10, 0))).toEqual([true, true, true, true]);
    expect(sut.spend(10, 0)).toBe(false);
  });

  it('refuses a message that overdraws the bytes though messages remain', () => {
    const sut = new LinkBudgetMeter(limits, 0);
    expect(sut.spend(600, 0)).toBe(true);
    expect(sut.spend(600, 0)).toBe(false);
  });

  it('refills at the rate: a link keeping to it is never refused', () => {
    const sut = new LinkBudgetMeter(limits, 0);
    const kept = Array.from({ length: 40 }, (_, index) => sut.spend(250, (index + 1) * 250));
    expect(kept.every((accepted) => accepted)).toBe(true);
  });

  it('never holds more than one second of budget, however long the link was quiet', () => {
    const sut = new LinkBudgetMeter(limits, 0);
    const afterAnHour = [1, 2, 3, 4, 5].map(() => sut.spend(1, 3_600_000));
    expect(afterAnHour).toEqual([true, true, true, true, false]);
  });
});
