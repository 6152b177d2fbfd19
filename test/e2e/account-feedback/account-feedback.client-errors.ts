import { describe, expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { expectProblem } from '../../support/problems.js';
import { type AccountFeedbackFixture, DEPRECATION, SUNSET } from './account-feedback.fixture.js';

/** Client error reports (spec 4.11, 9). */
export function accountClientErrors(fx: AccountFeedbackFixture): void {
  const { session, call, latest } = fx;
  describe('POST /v1/client-errors (spec 4.11, 9)', () => {
    it('stores a scrubbed report and answers 202 {id} without deprecation headers', async () => {
      const answer = await call('/v1/client-errors', {
        method: 'POST',
        headers: fx.owner.auth,
        body: {
          message: `Failed with svc_${'a'.repeat(52)} for someone@example.com`,
          stack: 'at fetch (svcnode_abcDEF123456) cookie svc_session=secretvalue123',
          url: 'https://dash.example/reset?token=rst_abc&password=hunter2&x=1',
          user_agent: 'Mozilla/5.0',
          dashboard_version: '1.2.3',
          sampled_rate: 0.5,
          kind: 'unhandledrejection',
          name: 'TypeError',
        },
      });
      expect(answer.status, answer.text).toBe(202);
      const { id } = answer.json as { id: string };
      expect(id).toEqual(expect.any(String));
      expect(answer.headers.deprecation).toBeUndefined();
      expect(answer.headers.sunset).toBeUndefined();
      const stored = (await latest()).clientErrors.find((row) => row.id === id);
      expect(stored).toMatchObject({
        accountId: fx.ownerId,
        actor: expect.stringMatching(/^token:/),
        message: 'Failed with svc_[redacted] for [email]',
        stack: 'at fetch (svcnode_[redacted]) cookie svc_session=[redacted]',
        url: 'https://dash.example/reset?token=[redacted]&password=[redacted]&x=1',
        userAgent: 'Mozilla/5.0',
        dashboardVersion: '1.2.3',
        sampledRate: 0.5,
        kind: 'unhandledrejection',
        name: 'TypeError',
      });
    });

    it('maps release and route, ignores at, and answers Deprecation and Sunset when they are used', async () => {
      const answer = await call('/v1/client-errors', {
        method: 'POST',
        headers: session(fx.owner),
        body: { message: 'old client', release: '0.9.0', route: '/profiles', at: '2026-01-01T00:00:00Z' },
      });
      expect(answer.status, answer.text).toBe(202);
      expect(answer.headers.deprecation).toBe(DEPRECATION);
      expect(answer.headers.sunset).toBe(SUNSET);
      const { id } = answer.json as { id: string };
      const stored = (await latest()).clientErrors.find((row) => row.id === id);
      expect(stored).toMatchObject({
        dashboardVersion: '0.9.0',
        url: '/profiles',
        actor: `account:${fx.ownerId}`,
      });
      expect(stored?.createdAt.getTime()).toBe(fx.api.clock.now().getTime());
      const onlyAt = await call('/v1/client-errors', {
        method: 'POST',
        headers: fx.owner.auth,
        body: { message: 'at only', at: 'whenever' },
      });
      expect(onlyAt.status).toBe(202);
      expect(onlyAt.headers.deprecation).toBe(DEPRECATION);
    });

    it('refuses invalid reports (422), over 32 KiB (400 body_too_large) and a token without account:read (403)', async () => {
      for (const body of [
        {},
        { message: '' },
        { message: 'x', sampled_rate: 2 },
        { message: 'x', sampled_rate: -0.1 },
      ]) {
        expectProblem(
          await call('/v1/client-errors', { method: 'POST', headers: fx.owner.auth, body }),
          422,
          'validation_failed',
        );
      }
      const tooLarge = await call('/v1/client-errors', {
        method: 'POST',
        headers: fx.owner.auth,
        body: { message: 'big', stack: 'x'.repeat(33 * 1024) },
      });
      expectProblem(tooLarge, 400, 'body_too_large');
      const narrow = await createAccount(fx.api, ['profiles:read']);
      expectProblem(
        await call('/v1/client-errors', { method: 'POST', headers: narrow.auth, body: { message: 'x' } }),
        403,
        'insufficient_scope',
      );
      expectProblem(
        await call('/v1/client-errors', { method: 'POST', body: { message: 'x' } }),
        401,
        'unauthenticated',
      );
    });

    it('accepts 10 reports a minute per account, then 429 rate_limited with Retry-After', async () => {
      const reporter = await createAccount(fx.api);
      for (let count = 0; count < 10; count += 1) {
        const answer = await call('/v1/client-errors', {
          method: 'POST',
          headers: reporter.auth,
          body: { message: `report ${count}` },
        });
        expect(answer.status).toBe(202);
      }
      const limited = await call('/v1/client-errors', {
        method: 'POST',
        headers: reporter.auth,
        body: { message: 'one too many' },
      });
      expectProblem(limited, 429, 'rate_limited');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // Another account is not limited by it.
      const other = await call('/v1/client-errors', {
        method: 'POST',
        headers: fx.stranger.auth,
        body: { message: 'mine' },
      });
      expect(other.status).toBe(202);
    });
  });
}
