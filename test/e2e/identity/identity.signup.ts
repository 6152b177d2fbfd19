import { describe, expect, it } from 'vitest';
import { eventually } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';
import { DASHBOARD, DAY, freshEmail, type IdentityFixture, PASSWORD } from './identity.fixture.js';

/** Signup and address verification (spec 4.8). */
export function identitySignup(fx: IdentityFixture): void {
  const { post, linkIn, signedIn } = fx;
  describe('signup and verification (4.8)', () => {
    it('GET /v1/auth/signup-mode names the mode and whether a waitlist exists', async () => {
      const answer = await send(`${fx.api.url}/v1/auth/signup-mode`);
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ mode: 'open', waitlist: false });
    });

    it('answers 202 verification_sent and emails a ver_ link to the dashboard', async () => {
      const email = freshEmail();
      const answer = await post('/v1/auth/signup', { email, password: PASSWORD });
      expect(answer.status).toBe(202);
      expect(answer.json).toEqual({ status: 'verification_sent' });
      const token = await linkIn(
        email,
        /(?:^|\s)(http:\/\/localhost:3000\/verify-email\?token=ver_[A-Za-z0-9_-]+)/,
      );
      expect(token.startsWith(`${DASHBOARD}/verify-email?token=ver_`)).toBe(true);
    });

    it('answers a registered address identically and sends one account-exists notice a minute', async () => {
      const { email } = await signedIn();
      const first = await post('/v1/auth/signup', { email, password: 'another password 1' });
      const second = await post('/v1/auth/signup', { email, password: 'another password 2' });
      expect(first.status).toBe(202);
      expect(first.text).toBe(JSON.stringify({ status: 'verification_sent' }));
      expect(second.text).toBe(first.text);
      const mails = await eventually(
        () => fx.api.mailTo(email),
        (found) => found.length >= 2,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      const all = await fx.api.mailTo(email);
      expect(all).toHaveLength(2);
      expect(mails[1]).toMatch(/already has an account/i);
      fx.api.clock.advance(61_000);
      await post('/v1/auth/signup', { email, password: 'another password 3' });
      await eventually(
        () => fx.api.mailTo(email),
        (found) => found.length >= 3,
      );
      expect(await fx.api.mailTo(email)).toHaveLength(3);
    });

    it('refuses a password under 12 code points alone with 422 password_too_short naming password', async () => {
      const answer = await post('/v1/auth/signup', { email: freshEmail(), password: 'short pass' });
      expect(answer.status).toBe(422);
      const problem = problemOf(answer);
      expect(problem.code).toBe('password_too_short');
      expect(problem.errors).toEqual([{ field: 'password', message: expect.any(String) }]);
    });

    it('refuses a password over 128 code points with 422 password_too_long', async () => {
      const answer = await post('/v1/auth/signup', { email: freshEmail(), password: 'x'.repeat(129) });
      expect(problemOf(answer).code).toBe('password_too_long');
    });

    it('counts Unicode code points, not UTF-16 units: 12 emoji pass and 11 do not', async () => {
      expect((await post('/v1/auth/signup', { email: freshEmail(), password: '🔒'.repeat(12) })).status).toBe(
        202,
      );
      const short = await post('/v1/auth/signup', { email: freshEmail(), password: '🔒'.repeat(11) });
      expect(problemOf(short).code).toBe('password_too_short');
    });

    it('lists a password problem beside other invalid fields as validation_failed', async () => {
      const answer = await post('/v1/auth/signup', { email: 'not-an-email', password: 'short' });
      const problem = problemOf(answer);
      expect(answer.status).toBe(422);
      expect(problem.code).toBe('validation_failed');
      const fields = (problem.errors as { field: string }[]).map((error) => error.field).sort();
      expect(fields).toEqual(['email', 'password']);
    });

    it('verifies once: 200 with the account, then 400 token_used; unknown tokens are invalid_token', async () => {
      const email = freshEmail();
      await post('/v1/auth/signup', { email, password: PASSWORD });
      const token = await linkIn(email, /verify-email\?token=([^\s"<]+)/);
      const verified = await post('/v1/auth/verify', { token });
      expect(verified.status).toBe(200);
      const account = (verified.json as { account: Record<string, unknown> }).account;
      expect(account).toMatchObject({ email, role: 'owner', plan: 'free', mfa: false, is_admin: false });
      expect(account.email_verified_at).toEqual(expect.any(String));
      expect(account.deletion_requested_at).toBeNull();
      expect(Object.keys(account).sort()).toEqual(
        [
          'created_at',
          'deletion_due_at',
          'deletion_requested_at',
          'email',
          'email_verified_at',
          'id',
          'is_admin',
          'mfa',
          'org_id',
          'plan',
          'role',
        ].sort(),
      );
      expect(problemOf(await post('/v1/auth/verify', { token })).code).toBe('token_used');
      const unknown = await post('/v1/auth/verify', { token: 'ver_nothing-like-this' });
      expect(unknown.status).toBe(400);
      expect(problemOf(unknown).code).toBe('invalid_token');
    });

    it('expires verification links after 24 hours with 400 token_expired; resend sends a fresh one', async () => {
      const email = freshEmail();
      await post('/v1/auth/signup', { email, password: PASSWORD });
      const stale = await linkIn(email, /verify-email\?token=([^\s"<]+)/);
      fx.api.clock.advance(DAY + 1_000);
      const expired = await post('/v1/auth/verify', { token: stale });
      expect(expired.status).toBe(400);
      expect(problemOf(expired).code).toBe('token_expired');
      const resent = await post('/v1/auth/resend-verification', { email });
      expect(resent.status).toBe(202);
      expect(resent.json).toEqual({ status: 'verification_sent' });
      const fresh = await linkIn(email, /verify-email\?token=([^\s"<]+)/, 2);
      expect(fresh).not.toBe(stale);
      expect((await post('/v1/auth/verify', { token: fresh })).status).toBe(200);
    });

    it('answers resend-verification with 202 for an unknown address too', async () => {
      const answer = await post('/v1/auth/resend-verification', { email: freshEmail() });
      expect(answer.status).toBe(202);
      expect(answer.json).toEqual({ status: 'verification_sent' });
    });
  });
}
