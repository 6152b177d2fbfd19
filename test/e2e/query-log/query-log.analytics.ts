import { ownerOfAddress, ownerOfQuery } from '@svc/domain';
import { describe, expect, it } from 'vitest';
import { problemOf, send } from '../../support/http.js';
import { countsByStatus, expectedReason, topBy, within } from './query-log.expected.js';
import { column, HOUR, type QueryLogFixture } from './query-log.fixture.js';

/** Analytics shapes computed from the same rows (spec 4.6). */
export function queryLogAnalytics(fx: QueryLogFixture): void {
  const { get, ok, recent } = fx;
  describe('GET /v1/profiles/{id}/analytics/{shape}', () => {
    it('counts_by_status filtered by time only comes from the hourly totals, in whole hours', async () => {
      const from = new Date(fx.now.getTime() - 30 * HOUR + 17 * 60_000);
      const result = await ok(
        `/v1/profiles/${fx.profileId}/analytics/counts_by_status?from=${from.getTime()}&to=${fx.now.getTime()}`,
      );
      expect(result.columns).toEqual([
        { name: 'status', type: 'string' },
        { name: 'count', type: 'uint' },
      ]);
      const hourFrom = new Date(Math.floor(from.getTime() / HOUR) * HOUR);
      const hourTo = new Date(Math.ceil(fx.now.getTime() / HOUR) * HOUR);
      expect(result.rows).toEqual(countsByStatus(within(fx.rows, hourFrom, hourTo)));
    });

    it('counts_by_status with a filter counts the rows themselves', async () => {
      const [device] = fx.devices;
      const result = await ok(
        `/v1/profiles/${fx.profileId}/analytics/counts_by_status?${recent(`&device=${device?.id}`)}`,
      );
      expect(result.rows).toEqual(countsByStatus(fx.rows.filter((row) => row.deviceId === device?.id)));
      const two = await ok(
        `/v1/profiles/${fx.profileId}/analytics/counts_by_status?${recent('&status=error&status=blocked')}`,
      );
      expect(two.rows).toEqual(
        countsByStatus(fx.rows).filter(([status]) => status === 'blocked' || status === 'error'),
      );
    });

    it('timeline: one row per bucket with queries, oldest first, a count per status', async () => {
      const result = await ok(`/v1/profiles/${fx.profileId}/analytics/timeline?${recent()}`);
      expect(result.columns.map((entry) => entry.name)).toEqual([
        'ts',
        'allowed',
        'blocked',
        'rewritten',
        'error',
      ]);
      const buckets = new Map<number, number[]>();
      for (const row of fx.rows) {
        const bucket = Math.floor(row.ts.getTime() / HOUR) * HOUR;
        const counts = buckets.get(bucket) ?? [0, 0, 0, 0];
        const index = ['allowed', 'blocked', 'rewritten', 'error'].indexOf(row.status);
        counts[index] = (counts[index] ?? 0) + 1;
        buckets.set(bucket, counts);
      }
      const expected = [...buckets.entries()]
        .sort(([a], [b]) => a - b)
        .map(([bucket, counts]) => [new Date(bucket).toISOString(), ...counts]);
      expect(result.rows).toEqual(expected);
      // From the totals a sub-hour bucket reports whole hours.
      const minute = await ok(`/v1/profiles/${fx.profileId}/analytics/timeline?bucket=60&${recent()}`);
      expect(minute.rows).toEqual(expected);
    });

    it('timeline with a filter buckets the rows at the width asked', async () => {
      const result = await ok(
        `/v1/profiles/${fx.profileId}/analytics/timeline?bucket=900&${recent('&status=blocked')}`,
      );
      const counts = new Map<number, number>();
      for (const row of fx.rows.filter((one) => one.status === 'blocked')) {
        const bucket = Math.floor(row.ts.getTime() / 900_000) * 900_000;
        counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
      }
      expect(result.rows).toEqual(
        [...counts.entries()]
          .sort(([a], [b]) => a - b)
          .map(([bucket, count]) => [new Date(bucket).toISOString(), 0, count, 0, 0]),
      );
    });

    it('top_domains: qname, count; most first, ties by name; limit', async () => {
      const result = await ok(`/v1/profiles/${fx.profileId}/analytics/top_domains?${recent('&limit=25')}`);
      expect(result.columns).toEqual([
        { name: 'qname', type: 'string' },
        { name: 'count', type: 'uint' },
      ]);
      expect(result.rows).toEqual(topBy(fx.rows, (row) => row.qname, 25));
      expect(result.next_cursor).toBeNull();
    });

    it('top_blocked counts blocked queries only', async () => {
      const result = await ok(`/v1/profiles/${fx.profileId}/analytics/top_blocked?${recent()}`);
      expect(result.rows).toEqual(topBy(fx.rows, (row) => (row.status === 'blocked' ? row.qname : null)));
      const allowed = await ok(
        `/v1/profiles/${fx.profileId}/analytics/top_blocked?${recent('&status=allowed')}`,
      );
      expect(allowed.rows).toEqual([]);
    });

    it('top_devices groups by device id with the display name when set (rule 3)', async () => {
      const named = fx.devices[1] as { id: string; name: string };
      const patched = await send(`${fx.api.url}/v1/profiles/${fx.profileId}/devices/${named.id}`, {
        method: 'PATCH',
        headers: fx.owner.auth,
        body: { display_name: 'Den TV' },
      });
      expect(patched.status).toBe(200);
      const result = await ok(`/v1/profiles/${fx.profileId}/analytics/top_devices?${recent()}`);
      expect(result.columns.map((entry) => entry.name)).toEqual(['device_id', 'device_name', 'count']);
      const expected = topBy(fx.rows, (row) => (row.deviceId === '' ? null : row.deviceId));
      const names = new Map(fx.devices.map((device) => [device.id, device.name]));
      names.set(named.id, 'Den TV');
      expect(result.rows).toEqual(expected.map(([id, count]) => [id, names.get(id), count]));
      const logs = await ok(`/v1/profiles/${fx.profileId}/logs?device=${named.id}&limit=3`);
      expect(column(logs, 'device_name')).toEqual(['Den TV', 'Den TV', 'Den TV']);
    });

    it('destinations: allowed queries by answer address with country and owner (rule 5)', async () => {
      const result = await ok(`/v1/profiles/${fx.profileId}/analytics/destinations?${recent('&limit=50')}`);
      expect(result.columns.map((entry) => entry.name)).toEqual(['ip', 'count', 'country', 'owner']);
      const expected = topBy(fx.rows, (row) => (row.status === 'allowed' ? row.answerIps : null), 50);
      // No GeoIP database configured: every country is empty.
      expect(result.rows).toEqual(expected.map(([ip, count]) => [ip, count, '', ownerOfAddress(ip)]));
      expect(result.rows.some((row) => row[3] !== '')).toBe(true);
    });

    it('top_reasons: blocked and rewritten queries by what decided them, ties by code, list, reason (rule 4)', async () => {
      const result = await ok(`/v1/profiles/${fx.profileId}/analytics/top_reasons?${recent()}`);
      expect(result.columns).toEqual([
        { name: 'reason_code', type: 'string' },
        { name: 'list_id', type: 'uint' },
        { name: 'reason', type: 'string' },
        { name: 'count', type: 'uint' },
      ]);
      const groups = new Map<string, [string, number | null, string, number]>();
      for (const row of fx.rows) {
        if (row.status !== 'blocked' && row.status !== 'rewritten') continue;
        const [reason, code] = expectedReason(row);
        const listId = code === 'list' ? row.reasonListId : null;
        const key = JSON.stringify([code, listId, reason]);
        const group = groups.get(key) ?? [code, listId, reason, 0];
        group[3] += 1;
        groups.set(key, group);
      }
      const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
      const expected = [...groups.values()].sort(
        (a, b) => b[3] - a[3] || text(a[0], b[0]) || (a[1] ?? -1) - (b[1] ?? -1) || text(a[2], b[2]),
      );
      expect(result.rows).toEqual(expected);
      expect(result.rows.some((row) => row[0] === 'rewrite')).toBe(true);
    });

    it('top_owners: owner by name suffix, else first classified answer; unclassified left out (rule 6)', async () => {
      const result = await ok(`/v1/profiles/${fx.profileId}/analytics/top_owners?${recent()}`);
      expect(result.columns.map((entry) => entry.name)).toEqual(['owner', 'count']);
      const expected = topBy(fx.rows, (row) => {
        const owner = ownerOfQuery(row.qname, row.answerIps);
        return owner === '' ? null : owner;
      });
      expect(result.rows).toEqual(expected);
      expect(expected.length).toBeGreaterThan(3);
    });

    it('top_pops: pop, count; default limit 10, at most 100 (rule 7)', async () => {
      const result = await ok(`/v1/profiles/${fx.profileId}/analytics/top_pops?${recent()}`);
      expect(result.rows).toEqual(topBy(fx.rows, (row) => (row.pop === '' ? null : row.pop), 10));
      const one = await ok(`/v1/profiles/${fx.profileId}/analytics/top_pops?${recent('&limit=1')}`);
      expect(one.rows).toHaveLength(1);
      const tooMany = await get(`/v1/profiles/${fx.profileId}/analytics/top_pops?${recent('&limit=101')}`);
      expect(tooMany.status).toBe(422);
      expect(problemOf(tooMany).errors).toEqual([{ field: 'limit', message: expect.any(String) }]);
    });
  });
}
