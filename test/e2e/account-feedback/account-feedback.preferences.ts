import { describe, expect, it } from 'vitest';
import { expectProblem } from '../../support/problems.js';
import type { AccountFeedbackFixture } from './account-feedback.fixture.js';

/** Account preferences (spec 2.2, 4.8). */
export function accountPreferences(fx: AccountFeedbackFixture): void {
  const { session, call, audit } = fx;
  describe('preferences (spec 2.2, 4.8)', () => {
    it('GET answers the defaults for unset keys, to a session only', async () => {
      const answer = await call('/v1/auth/me/preferences', { headers: session(fx.owner) });
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ alerts: { node_offline: true } });
      expectProblem(
        await call('/v1/auth/me/preferences', { headers: fx.owner.auth }),
        403,
        'session_required',
      );
      expectProblem(await call('/v1/auth/me/preferences', {}), 401, 'unauthenticated');
    });

    it('PATCH merges, answers the preferences after the change and audits account.preferences_updated', async () => {
      const answer = await call('/v1/auth/me/preferences', {
        method: 'PATCH',
        headers: { ...session(fx.owner), 'x-request-id': 'prefs-change-1' },
        body: { alerts: { node_offline: false } },
      });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.json).toEqual({ alerts: { node_offline: false } });
      const read = await call('/v1/auth/me/preferences', { headers: session(fx.owner) });
      expect(read.json).toEqual({ alerts: { node_offline: false } });
      const page = await audit('?action=account.preferences_updated');
      expect(page.entries).toHaveLength(1);
      expect(page.entries[0]).toMatchObject({
        actor: `account:${fx.ownerId}`,
        action: 'account.preferences_updated',
        target: `accounts/${fx.ownerId}/preferences`,
        details: { changed: { 'alerts.node_offline': false } },
      });
      expect(page.entries[0]?.client_ip).toEqual(expect.any(String));
      expect(page.entries[0]?.request_id).toEqual(expect.any(String));
      expect(Number.isNaN(Date.parse(page.entries[0]?.created_at ?? ''))).toBe(false);
    });

    it('PATCH refuses a body that changes nothing, unknown keys and non-booleans with 422 validation_failed', async () => {
      for (const body of [
        {},
        { alerts: {} },
        { alerts: { node_offline: false } },
        { theme: 'dark' },
        { alerts: { node_offline: true, weekly: true } },
        { alerts: { node_offline: 'yes' } },
      ]) {
        const answer = await call('/v1/auth/me/preferences', {
          method: 'PATCH',
          headers: session(fx.owner),
          body,
        });
        expectProblem(answer, 422, 'validation_failed');
      }
      const malformed = await call('/v1/auth/me/preferences', {
        method: 'PATCH',
        headers: { ...session(fx.owner), 'content-type': 'application/json' },
        body: '{"alerts":',
      });
      expectProblem(malformed, 400, 'bad_request');
      const byToken = await call('/v1/auth/me/preferences', {
        method: 'PATCH',
        headers: fx.owner.auth,
        body: { alerts: { node_offline: true } },
      });
      expectProblem(byToken, 403, 'session_required');
      // Nothing of the refused requests was audited.
      expect((await audit('?action=account.preferences_updated')).entries).toHaveLength(1);
    });
  });
}
