import type { QueryResult } from '@svc/domain';
import { describe, expect, it } from 'vitest';
import { analyticsRecords } from '../src/analytics-results.js';

const result = (columns: [string, QueryResult['columns'][number]['type']][], rows: QueryResult['rows']) => ({
  columns: columns.map(([name, type]) => ({ name, type })),
  rows,
});

describe(analyticsRecords.name, () => {
  it('reads cells by column name, so a column appended or moved within /v1 changes nothing (spec 9.2)', () => {
    const records = analyticsRecords(
      'top_devices',
      result(
        [
          ['count', 'uint'],
          ['device_name', 'string'],
          ['later', 'string'],
          ['device_id', 'string'],
        ],
        [[12, 'Phone', 'x', 'd1']],
      ),
    );
    expect(records).toEqual([{ device_id: 'd1', device_name: 'Phone', count: 12 }]);
  });

  it('gives NULL and missing cells a value of their type: text empty, counts 0, a missing list null', () => {
    const [reason] = analyticsRecords(
      'top_reasons',
      result(
        [
          ['reason_code', 'string'],
          ['list_id', 'uint'],
          ['count', 'uint'],
        ],
        [['rule', null, '7']],
      ),
    );
    expect(reason).toEqual({ reason_code: 'rule', list_id: null, reason: '', count: 7 });
    const [bucket] = analyticsRecords('timeline', result([['ts', 'time']], [['2026-11-27T10:00:00Z']]));
    expect(bucket).toEqual({ ts: '2026-11-27T10:00:00Z', allowed: 0, blocked: 0, rewritten: 0, error: 0 });
  });

  it('never yields NaN from a cell that is not a number', () => {
    const [row] = analyticsRecords(
      'top_owners',
      result(
        [
          ['owner', 'string'],
          ['count', 'uint'],
        ],
        [['acme', 'many']],
      ),
    );
    expect(row?.count).toBe(0);
  });
});
