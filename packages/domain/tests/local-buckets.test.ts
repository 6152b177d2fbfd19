import { describe, expect, it } from 'vitest';
import { localBucketStart, NodeLogBatchRow, queryLogRowOfNode, totalsBucketStart } from '../src/index.js';

const HOUR = 3_600_000;
const at = (text: string) => Date.parse(text);
const iso = (ms: number) => new Date(ms).toISOString();

describe(localBucketStart.name, () => {
  it('Lord Howe’s half-hour change: the October day starts at 00:00 +10:30 and lasts 23.5 hours', () => {
    // 2026-10-04 02:00 local (+10:30) becomes 02:30 (+11:00).
    const midnight = at('2026-10-03T13:30:00Z');
    expect(iso(localBucketStart('Australia/Lord_Howe', at('2026-10-04T12:00:00Z'), 86_400))).toBe(
      iso(midnight),
    );
    expect(iso(localBucketStart('Australia/Lord_Howe', at('2026-10-04T12:59:59Z'), 86_400))).toBe(
      iso(midnight),
    );
    expect(iso(localBucketStart('Australia/Lord_Howe', at('2026-10-04T13:00:00Z'), 86_400))).toBe(
      iso(midnight + 23.5 * HOUR),
    );
  });

  it('from the hourly totals a half-hour zone reports whole UTC hours, each counted once', () => {
    const hours = Array.from({ length: 48 }, (_, index) => at('2026-06-14T00:00:00Z') + index * HOUR);
    const buckets = hours.map((hour) => totalsBucketStart('Asia/Kathmandu', hour, 86_400));
    // Kathmandu's midnight is 18:15 UTC: the 18:00 hour goes to the new day, labelled 18:00 UTC.
    expect([...new Set(buckets)].map(iso)).toEqual([
      '2026-06-13T18:00:00.000Z',
      '2026-06-14T18:00:00.000Z',
      '2026-06-15T18:00:00.000Z',
    ]);
    for (const [index, hour] of hours.entries()) expect(buckets[index]).toBeLessThanOrEqual(hour);
  });
});

describe('NodeLogBatchRow decided_by (issue 38)', () => {
  const row = {
    ts: '2026-11-01T00:00:00Z',
    row_id: '1',
    transport: 'dot',
    qname: 'example.com',
    qtype: 1,
    status: 'allowed',
    rcode: 0,
  };

  it('keeps a valid decided_by, and a row without one reads as empty', () => {
    const parsed = NodeLogBatchRow.parse({ ...row, decided_by: 'schedule:bedtime' });
    expect(queryLogRowOfNode(parsed, 'node', 'profile').decidedBy).toBe('schedule:bedtime');
    expect(queryLogRowOfNode(NodeLogBatchRow.parse(row), 'node', 'profile').decidedBy).toBe('');
  });

  it('refuses more than 100 characters or characters outside [a-z0-9:._~-]', () => {
    expect(NodeLogBatchRow.safeParse({ ...row, decided_by: 'Schedule Bedtime' }).success).toBe(false);
    expect(NodeLogBatchRow.safeParse({ ...row, decided_by: `device:${'a'.repeat(94)}` }).success).toBe(false);
    expect(NodeLogBatchRow.safeParse({ ...row, decided_by: `device:${'a'.repeat(93)}` }).success).toBe(true);
  });
});
