import type { InviteService } from '@svc/domain';
import { InviteServiceToken } from '@svc/http-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, eventually, startApi } from '../../support/api-harness.js';
import { problemOf, type RawAnswer, send } from '../../support/http.js';
import { freshEmail, type IdentityFixture, PASSWORD } from './identity.fixture.js';

/** Open, invite-only and closed signup (spec 4.8). */
export function identitySignupModes(fx: IdentityFixture): void {
  const { post } = fx;
  describe('signup modes (4.8)', () => {
    let closed: ApiHarness;
    let invite: ApiHarness;
    beforeAll(async () => {
      [closed, invite] = await Promise.all([
        startApi('memory', { SVC_SIGNUP_MODE: 'closed' }),
        startApi('memory', {
          SVC_SIGNUP_MODE: 'invite',
          SVC_SIGNUP_ALLOWLIST: 'friends.test,vip@example.test',
        }),
      ]);
    });
    afterAll(async () => {
      await Promise.all([closed?.close(), invite?.close()]);
    });

    it('closed: 403 signup_closed; the waitlist takes the address and confirms it once', async () => {
      const email = freshEmail();
      const refused = await send(`${closed.url}/v1/auth/signup`, {
        method: 'POST',
        body: { email, password: PASSWORD },
      });
      expect(refused.status).toBe(403);
      expect(problemOf(refused).code).toBe('signup_closed');
      expect((await send(`${closed.url}/v1/auth/signup-mode`)).json).toEqual({
        mode: 'closed',
        waitlist: true,
      });
      const joined = await send(`${closed.url}/v1/waitlist`, { method: 'POST', body: { email } });
      expect(joined.status).toBe(202);
      expect(joined.json).toEqual({ status: 'confirmation_sent' });
      const mail = await eventually(
        () => closed.mailTo(email),
        (found) => found.length > 0,
      );
      const token = decodeURIComponent(/token=([^\s"<]+)/.exec(mail[0] ?? '')?.[1] ?? '');
      const confirmed = await send(`${closed.url}/v1/waitlist/confirm?token=${encodeURIComponent(token)}`);
      expect(confirmed.status).toBe(200);
      const reused = await send(`${closed.url}/v1/waitlist/confirm?token=${encodeURIComponent(token)}`);
      expect(problemOf(reused).code).toBe('token_used');
    });

    it('open: the waitlist is unavailable', async () => {
      const answer = await post('/v1/waitlist', { email: freshEmail() });
      expect(problemOf(answer).code).toBe('waitlist_unavailable');
    });

    it('invite: every missing, unknown, revoked or exhausted code is the same 403 invite_required', async () => {
      const invites = await invite.container.getAsync<InviteService>(InviteServiceToken);
      const single = await invites.create(1, null);
      const revoked = await invites.create(5, null);
      await invites.revoke(revoked.code);
      const signup = (body: object) => send(`${invite.url}/v1/auth/signup`, { method: 'POST', body });
      const refusals = [
        await signup({ email: freshEmail(), password: PASSWORD }),
        await signup({ email: freshEmail(), password: PASSWORD, invite_code: 'inv_unknown' }),
        await signup({ email: freshEmail(), password: PASSWORD, invite_code: revoked.code }),
      ];
      expect(
        (await signup({ email: freshEmail(), password: PASSWORD, invite_code: single.code })).status,
      ).toBe(202);
      refusals.push(await signup({ email: freshEmail(), password: PASSWORD, invite_code: single.code }));
      for (const refusal of refusals) {
        expect(refusal.status).toBe(403);
        expect(problemOf(refusal).code).toBe('invite_required');
        expect(problemOf(refusal).detail).toBe(problemOf(refusals[0] as RawAnswer).detail);
      }
    });

    it('invite: an allowlisted domain or address signs up without a code', async () => {
      const signup = (email: string) =>
        send(`${invite.url}/v1/auth/signup`, { method: 'POST', body: { email, password: PASSWORD } });
      expect((await signup('someone@friends.test')).status).toBe(202);
      expect((await signup('vip@example.test')).status).toBe(202);
      expect((await signup('someone@sub.friends.test')).status).toBe(403);
    });
  });
}
