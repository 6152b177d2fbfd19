import { describe, expect, it } from 'vitest';
import { enclosingHours, parseInstant, RANGE_CAP_DAYS, resolveRange } from '../src/index.js';

const DAY = 86_400_000;
const now = new Date('2026-11-23T04:05:06.789Z');

describe(resolveRange.name, () => {
  it('without from starts the shape’s longest range before to (or now); a tail has no lower bound', () => {
    expect(resolveRange('search', undefined, undefined, now)).toEqual({
      from: new Date(now.getTime() - 31 * DAY),
      to: now,
    });
    const to = new Date('2026-01-01T00:00:00Z');
    expect(resolveRange('top_domains', undefined, to, now)).toEqual({
      from: new Date(to.getTime() - 400 * DAY),
      to,
    });
    expect(resolveRange('tail', undefined, undefined, now)).toEqual({ from: null, to: now });
  });

  it('caps each shape as spec 8 does, 422 range_too_large naming from', () => {
    expect(RANGE_CAP_DAYS).toMatchObject({
      search: 31,
      top_devices: 31,
      destinations: 31,
      top_pops: 31,
      counts_by_status: 400,
      timeline: 400,
      top_domains: 400,
      top_blocked: 400,
      top_reasons: 400,
      top_owners: 400,
      tail: null,
    });
    for (const [shape, days] of Object.entries(RANGE_CAP_DAYS)) {
      if (days === null) continue;
      const key = shape as keyof typeof RANGE_CAP_DAYS;
      expect(resolveRange(key, new Date(now.getTime() - days * DAY), now, now).from).toEqual(
        new Date(now.getTime() - days * DAY),
      );
      expect(() => resolveRange(key, new Date(now.getTime() - days * DAY - 1), now, now)).toThrow(
        expect.objectContaining({
          code: 'range_too_large',
          fieldErrors: [expect.objectContaining({ field: 'from' })],
        }),
      );
    }
    expect(resolveRange('tail', new Date(0), now, now).from).toEqual(new Date(0));
  });

  it('from after to is 422 validation_failed naming from', () => {
    expect(() => resolveRange('search', new Date(now.getTime() + 1), now, now)).toThrow(
      expect.objectContaining({
        code: 'validation_failed',
        fieldErrors: [expect.objectContaining({ field: 'from' })],
      }),
    );
  });
});

describe(enclosingHours.name, () => {
  it('widens a range to the whole hours around it (spec 4.6 rule 1)', () => {
    expect(
      enclosingHours({ from: new Date('2026-11-23T01:59:59Z'), to: new Date('2026-11-23T03:00:00.001Z') }),
    ).toEqual({ from: new Date('2026-11-23T01:00:00Z'), to: new Date('2026-11-23T04:00:00Z') });
    expect(enclosingHours({ from: null, to: new Date('2026-11-23T03:00:00Z') })).toEqual({
      from: null,
      to: new Date('2026-11-23T03:00:00Z'),
    });
  });
});

describe(parseInstant.name, () => {
  it('reads RFC 3339 with an offset and Unix milliseconds, nothing else', () => {
    expect(parseInstant('2026-11-23T04:05:06.789Z')).toEqual(now);
    expect(parseInstant('2026-11-23T00:05:06.789-04:00')).toEqual(now);
    expect(parseInstant(String(now.getTime()))).toEqual(now);
    for (const bad of [
      '2026-11-23',
      '2026-11-23T04:05:06',
      'yesterday',
      '-5',
      '1e12',
      '2026-13-01T00:00:00Z',
    ]) {
      expect(parseInstant(bad), bad).toBeNull();
    }
  });
});
