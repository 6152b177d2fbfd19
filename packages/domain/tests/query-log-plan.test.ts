import { describe, expect, it } from 'vitest';
import {
  type AnalyticsShape,
  type LogFilters,
  type LogQuery,
  noLogFilters,
  planQuery,
  type QueryShape,
} from '../src/index.js';

const HOUR = 3_600_000;
const noFilters = noLogFilters();
const to = new Date('2026-11-23T04:30:00Z');

function queryOf(shape: QueryShape, filters: Partial<LogFilters> = {}, days = 10): LogQuery {
  return {
    shape,
    profileId: 'abc123',
    range: { from: new Date(to.getTime() - days * 24 * HOUR - 17 * 60_000), to },
    filters: { ...noFilters, ...filters },
    limit: 100,
    bucketSeconds: 3_600,
    position: null,
  };
}

const TOP_SHAPES: AnalyticsShape[] = [
  'top_domains',
  'top_devices',
  'top_blocked',
  'destinations',
  'top_reasons',
  'top_owners',
  'top_pops',
];

describe(planQuery.name, () => {
  it('counts_by_status and timeline by time only: hourly totals in whole hours, every destination (rule 1)', () => {
    for (const shape of ['counts_by_status', 'timeline'] as const) {
      for (const destination of ['cloud', 'both', 'self-hosted', 'none'] as const) {
        const plan = planQuery(queryOf(shape), destination, true);
        expect(plan.source).toBe('columnar');
        expect(plan.counts).toBe('totals');
        expect(plan.query.range).toEqual({
          from: new Date('2026-11-13T04:00:00Z'),
          to: new Date('2026-11-23T05:00:00Z'),
        });
        expect(plan.cost).toBe(2);
      }
    }
  });

  it('with any other filter, or without a columnar store, they follow the destination (rule 2)', () => {
    const filtered: Partial<LogFilters>[] = [
      { devices: ['phone'] },
      { statuses: ['blocked'] },
      { qname: 'a.example' },
      { qtypes: [1] },
      { lists: [3] },
      { clientIp: '192.0.2.1' },
    ];
    for (const filters of filtered) {
      expect(planQuery(queryOf('timeline', filters), 'none', true).source).toBe('none');
      expect(planQuery(queryOf('counts_by_status', filters), 'self-hosted', true).source).toBe('node');
      expect(planQuery(queryOf('counts_by_status', filters), 'cloud', true)).toMatchObject({
        source: 'columnar',
        counts: 'rows',
        cost: 22,
      });
    }
    expect(planQuery(queryOf('timeline'), 'none', false).source).toBe('none');
    expect(planQuery(queryOf('timeline'), 'self-hosted', false).source).toBe('node');
  });

  it('logs and top shapes: cloud and both → columnar, self-hosted → node, none → none', () => {
    for (const shape of ['tail', 'search', ...TOP_SHAPES] as const) {
      expect(planQuery(queryOf(shape), 'cloud', true).source).toBe('columnar');
      expect(planQuery(queryOf(shape), 'both', true).source).toBe('columnar');
      expect(planQuery(queryOf(shape), 'self-hosted', true)).toMatchObject({ source: 'node', cost: 0 });
      expect(planQuery(queryOf(shape), 'none', true)).toMatchObject({ source: 'none', cost: 0 });
    }
  });

  it('costs 1 for a tail and 2 per day begun of rows otherwise', () => {
    expect(planQuery(queryOf('tail', {}, 300), 'cloud', true).cost).toBe(1);
    expect(planQuery(queryOf('search', {}, 3), 'cloud', true).cost).toBe(8);
  });

  it('what the cloud store answers is 501 not_implemented without one', () => {
    for (const shape of ['tail', 'counts_by_status', 'top_domains'] as const) {
      for (const destination of ['cloud', 'both'] as const) {
        expect(() => planQuery(queryOf(shape), destination, false)).toThrow(
          expect.objectContaining({ code: 'not_implemented' }),
        );
      }
    }
  });
});
