import { createClient, queryRecords } from '@svc/sdk';
import { describe, expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { problemOf } from '../../support/http.js';
import { newestFirst, topBy } from './query-log.expected.js';
import { DAY, type QueryLogFixture } from './query-log.fixture.js';

/** Validation and cost guardrails (spec 7, 8; ROUTES.md), and the same reads through the SDK (spec 9.3). */
export function queryLogGuardrails(fx: QueryLogFixture): void {
  const { createProfile, get } = fx;
  describe('validation and guardrails (spec 7, 8; ROUTES.md)', () => {
    it('malformed parameters are 422 validation_failed naming each parameter', async () => {
      const cases: [string, string][] = [
        ['logs?limit=0', 'limit'],
        ['logs?limit=1001', 'limit'],
        ['logs?mode=stream', 'mode'],
        ['logs?from=yesterday', 'from'],
        ['logs?to=2026-13-01T00:00:00Z', 'to'],
        ['logs?status=fine', 'status.0'],
        [`logs?qname=${'a'.repeat(254)}`, 'qname'],
        ['logs?qtype=AAAA', 'qtype.0'],
        ['logs?list=70000', 'list.0'],
        ['logs?client_ip=300.1.1.1', 'client_ip'],
        ['analytics/timeline?bucket=59', 'bucket'],
        ['analytics/timeline?bucket=86401', 'bucket'],
        ['analytics/everything', 'shape'],
      ];
      for (const [path, field] of cases) {
        const answer = await get(`/v1/profiles/${fx.profileId}/${path}`);
        expect(answer.status, path).toBe(422);
        const problem = problemOf(answer);
        expect(problem.code, path).toBe('validation_failed');
        expect(
          (problem.errors as { field: string }[]).map((error) => error.field),
          path,
        ).toContain(field);
      }
    });

    it('a range wider than the shape allows is 422 range_too_large naming from', async () => {
      for (const [path, days] of [
        ['logs?mode=search', 32],
        ['analytics/destinations', 32],
        ['analytics/top_domains', 401],
      ] as const) {
        const from = fx.now.getTime() - days * DAY;
        const answer = await get(
          `/v1/profiles/${fx.profileId}/${path}${path.includes('?') ? '&' : '?'}from=${from}&to=${fx.now.getTime()}`,
        );
        expect(answer.status, path).toBe(422);
        const problem = problemOf(answer);
        expect(problem.code).toBe('range_too_large');
        expect(problem.errors).toEqual([{ field: 'from', message: expect.any(String) }]);
      }
      // A tail is uncapped.
      const tail = await get(
        `/v1/profiles/${fx.profileId}/logs?from=${fx.now.getTime() - 900 * DAY}&limit=1`,
      );
      expect(tail.status).toBe(200);
    });

    it('an empty budget is 429 too_many_queries with Retry-After; it refills with time (spec 8)', async () => {
      const spender = await createAccount(fx.api);
      const id = await createProfile(spender);
      // Without from, top_domains spans 400 days: 800 units of the 1,200.
      const first = await get(`/v1/profiles/${id}/analytics/top_domains`, spender);
      expect(first.status).toBe(200);
      const second = await get(`/v1/profiles/${id}/analytics/top_domains`, spender);
      expect(second.status).toBe(429);
      const problem = problemOf(second);
      expect(problem.code).toBe('too_many_queries');
      expect(Number(second.headers['retry-after'])).toBe(problem.retry_after);
      expect(problem.retry_after).toBe(20);
      // Another organisation has its own budget.
      expect((await get(`/v1/profiles/${fx.profileId}/logs?limit=1`)).status).toBe(200);
      fx.api.clock.advance(20_000);
      expect((await get(`/v1/profiles/${id}/analytics/top_domains`, spender)).status).toBe(200);
    });
  });

  describe('SDK (spec 9.3)', () => {
    it('queries logs and analytics and reads rows by column name', async () => {
      const sdk = createClient({ baseUrl: fx.api.url, token: fx.owner.token, maxRetries: 0 });
      const from = new Date(fx.now.getTime() - 3 * DAY);
      const tail = await sdk.profiles.logs.query(fx.profileId, {
        limit: 2,
        status: ['blocked', 'rewritten'],
      });
      const expected = newestFirst(
        fx.rows.filter((row) => row.status === 'blocked' || row.status === 'rewritten'),
      );
      expect(queryRecords(tail).map((record) => [record.qname, record.status])).toEqual(
        expected.slice(0, 2).map((row) => [row.qname, row.status]),
      );
      const top = await sdk.profiles.analytics.topDomains(fx.profileId, { from, to: fx.now, limit: 3 });
      expect(queryRecords(top)).toEqual(
        topBy(fx.rows, (row) => row.qname, 3).map(([qname, count]) => ({ qname, count })),
      );
      const refused = await sdk.profiles.analytics
        .query(fx.profileId, 'timeline', { from, to: fx.now, bucket: 59 })
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({ status: 422, code: 'validation_failed' });
    });
  });
}
