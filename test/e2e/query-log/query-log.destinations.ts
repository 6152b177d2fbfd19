import { describe, expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { problemOf, send } from '../../support/http.js';
import { LOG_COLUMNS, type QueryLogFixture } from './query-log.fixture.js';

/** Routing by log destination (spec 4.6 rules 1–2) and who may read (spec 5.3, 5.4, 1.9). */
export function queryLogDestinations(fx: QueryLogFixture): void {
  const { createProfile, get, ok, recent } = fx;
  describe('routing by log destination (spec 4.6 rules 1–2)', () => {
    it('none: logs and top shapes answer empty with source none; time-only counts come from the totals', async () => {
      const tail = await ok(`/v1/profiles/${fx.noneId}/logs`);
      expect(tail).toMatchObject({
        shape: 'tail',
        source: 'none',
        rows: [],
        partial: false,
        next_cursor: null,
      });
      expect(tail.columns).toHaveLength(LOG_COLUMNS.length);
      const top = await ok(`/v1/profiles/${fx.noneId}/analytics/top_domains?${recent()}`);
      expect(top).toMatchObject({ source: 'none', rows: [] });
      const counts = await ok(`/v1/profiles/${fx.noneId}/analytics/counts_by_status?${recent()}`);
      expect(counts.source).toBe('columnar');
      expect(counts.rows.reduce((sum, row) => sum + Number(row[1]), 0)).toBe(300);
      const timeline = await ok(`/v1/profiles/${fx.noneId}/analytics/timeline?${recent()}`);
      expect(timeline.source).toBe('columnar');
      expect(timeline.rows.length).toBeGreaterThan(0);
      const filtered = await ok(
        `/v1/profiles/${fx.noneId}/analytics/counts_by_status?${recent('&status=blocked')}`,
      );
      expect(filtered).toMatchObject({ source: 'none', rows: [] });
    });

    it('a destination changed between two queries routes the next one by the new destination', async () => {
      const destination = async (value: string) => {
        const patched = await send(`${fx.api.url}/v1/profiles/${fx.profileId}`, {
          method: 'PATCH',
          headers: { ...fx.owner.auth, 'content-type': 'application/merge-patch+json' },
          body: { settings: { log_destination: value } },
        });
        expect(patched.status).toBe(200);
      };
      // Read twice: the server now expects this profile's queries to go to the columnar store.
      for (let read = 0; read < 2; read += 1) {
        expect((await ok(`/v1/profiles/${fx.profileId}/logs`)).rows.length).toBeGreaterThan(0);
      }
      await destination('none');
      try {
        expect(await ok(`/v1/profiles/${fx.profileId}/logs`)).toMatchObject({ source: 'none', rows: [] });
        expect(await ok(`/v1/profiles/${fx.profileId}/analytics/top_domains?${recent()}`)).toMatchObject({
          source: 'none',
          rows: [],
        });
      } finally {
        await destination('cloud');
      }
      expect(await ok(`/v1/profiles/${fx.profileId}/logs`)).toMatchObject({ source: 'columnar' });
    });

    it('self-hosted: relayed to the node, 503 node_offline with Retry-After while none is connected', async () => {
      for (const path of ['logs', 'analytics/top_domains', 'analytics/counts_by_status?status=allowed']) {
        const answer = await get(`/v1/profiles/${fx.selfHostedId}/${path}`);
        expect(answer.status, path).toBe(503);
        expect(problemOf(answer).code).toBe('node_offline');
        expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
        expect(problemOf(answer).retry_after).toBe(Number(answer.headers['retry-after']));
      }
      const counts = await ok(`/v1/profiles/${fx.selfHostedId}/analytics/counts_by_status?${recent()}`);
      expect(counts.source).toBe('columnar');
      expect(counts.rows.reduce((sum, row) => sum + Number(row[1]), 0)).toBe(300);
    });
  });

  describe('access (spec 5.3, 5.4, 1.9)', () => {
    it('logs need logs:read and analytics need analytics:read', async () => {
      const logsOnly = await createAccount(fx.api, ['logs:read']);
      const analyticsOnly = await createAccount(fx.api, ['analytics:read']);
      const logsId = await createProfile(fx.owner);
      expect((await get(`/v1/profiles/${logsId}/logs`, logsOnly)).status).toBe(404);
      const mine = await send(`${fx.api.url}/v1/profiles`, {
        method: 'POST',
        headers: { cookie: `svc_session=${logsOnly.cookie}` },
        body: {},
      });
      const id = (mine.json as { id: string }).id;
      expect((await get(`/v1/profiles/${id}/logs`, logsOnly)).status).toBe(200);
      const refused = await get(`/v1/profiles/${id}/analytics/top_domains`, logsOnly);
      expect(refused.status).toBe(403);
      expect(problemOf(refused).code).toBe('insufficient_scope');
      const mine2 = await send(`${fx.api.url}/v1/profiles`, {
        method: 'POST',
        headers: { cookie: `svc_session=${analyticsOnly.cookie}` },
        body: {},
      });
      const id2 = (mine2.json as { id: string }).id;
      expect((await get(`/v1/profiles/${id2}/analytics/counts_by_status`, analyticsOnly)).status).toBe(200);
      const refusedLogs = await get(`/v1/profiles/${id2}/logs`, analyticsOnly);
      expect(refusedLogs.status).toBe(403);
      expect(problemOf(refusedLogs).code).toBe('insufficient_scope');
    });

    it('another organisation’s profile is 404 on both endpoints', async () => {
      for (const path of ['logs', 'analytics/top_domains', 'analytics/counts_by_status']) {
        const answer = await get(`/v1/profiles/${fx.profileId}/${path}`, fx.stranger);
        expect(answer.status, path).toBe(404);
        expect(problemOf(answer).code).toBe('not_found');
      }
    });
  });
}
