import { describe, expect, it } from 'vitest';
import { eventually } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';
import { freshEmail, HOUR, type IdentityFixture, PASSWORD, sessionCookieOf } from './identity.fixture.js';

/** Changing and resetting passwords (spec 4.8). */
export function identityPasswords(fx: IdentityFixture): void {
  const { post, withCookie, linkIn, signedIn, tokenFor } = fx;
  describe('passwords (4.8)', () => {
    it('changes the password: other sessions end, a notice is emailed, the new password signs in', async () => {
      const { email, cookie } = await signedIn();
      const other = sessionCookieOf(await post('/v1/auth/login', { email, password: PASSWORD })) ?? '';
      const wrong = await post(
        '/v1/auth/password',
        { current_password: 'not it at all', new_password: 'a brand new password' },
        withCookie(cookie),
      );
      expect(problemOf(wrong).code).toBe('invalid_credentials');
      const missing = await post(
        '/v1/auth/password',
        { new_password: 'a brand new password' },
        withCookie(cookie),
      );
      expect(missing.status).toBe(422);
      const short = await post(
        '/v1/auth/password',
        { current_password: PASSWORD, new_password: 'short' },
        withCookie(cookie),
      );
      expect(problemOf(short).code).toBe('password_too_short');
      const changed = await post(
        '/v1/auth/password',
        { current_password: PASSWORD, new_password: 'a brand new password' },
        withCookie(cookie),
      );
      expect(changed.status).toBe(200);
      expect(changed.json).toEqual({ revoked: 1 });
      expect((await send(`${fx.api.url}/v1/auth/me`, { headers: withCookie(other) })).status).toBe(401);
      expect((await send(`${fx.api.url}/v1/auth/me`, { headers: withCookie(cookie) })).status).toBe(200);
      const notice = await eventually(
        () => fx.api.mailTo(email),
        (found) => found.length >= 2,
      );
      expect(notice[1]).toMatch(/was changed, and every other session was signed out/);
      expect((await post('/v1/auth/login', { email, password: PASSWORD })).status).toBe(401);
      // The failure spaces the next attempt of the address by 100 ms (spec 5.2.3).
      fx.api.clock.advance(100);
      expect((await post('/v1/auth/login', { email, password: 'a brand new password' })).status).toBe(200);
    });

    it('refuses a password change from an API token with 403 session_required', async () => {
      const { cookie } = await signedIn();
      const { secret } = await tokenFor(cookie, ['account:read']);
      const answer = await post(
        '/v1/auth/password',
        { current_password: PASSWORD, new_password: 'a brand new password' },
        { authorization: `Bearer ${secret}` },
      );
      expect(answer.status).toBe(403);
      expect(problemOf(answer).code).toBe('session_required');
    });

    it('resets a password by emailed rst_ link: every session ends; the link works once, for an hour', async () => {
      const { email, cookie } = await signedIn();
      const unknown = await post('/v1/auth/password/reset', { email: freshEmail() });
      expect(unknown.status).toBe(202);
      expect(unknown.json).toEqual({ status: 'reset_sent' });
      const requested = await post('/v1/auth/password/reset', { email });
      expect(requested.text).toBe(unknown.text);
      const token = await linkIn(email, /reset-password\?token=(rst_[^\s"<]+)/, 2);
      const confirmed = await post('/v1/auth/password/reset/confirm', {
        token,
        new_password: 'reset password 123',
      });
      expect(confirmed.status).toBe(200);
      expect(confirmed.json).toEqual({ revoked: 1 });
      expect((await send(`${fx.api.url}/v1/auth/me`, { headers: withCookie(cookie) })).status).toBe(401);
      expect((await post('/v1/auth/login', { email, password: 'reset password 123' })).status).toBe(200);
      const again = await post('/v1/auth/password/reset/confirm', {
        token,
        new_password: 'reset password 456',
      });
      expect(problemOf(again).code).toBe('token_used');

      await post('/v1/auth/password/reset', { email });
      const mails = await eventually(
        () => fx.api.mailTo(email),
        (found) => found.some((mail, index) => index > 2 && /rst_/.test(mail)),
      );
      const late = /reset-password\?token=(rst_[^\s"<]+)/.exec(mails.at(-1) ?? '')?.[1] ?? '';
      fx.api.clock.advance(HOUR + 1_000);
      const expired = await post('/v1/auth/password/reset/confirm', {
        token: late,
        new_password: 'too late 123456',
      });
      expect(problemOf(expired).code).toBe('token_expired');
    });

    it('limits reset mails per address to a burst of 3 without a 429 anyone could cause (issue 27)', async () => {
      const { email } = await signedIn();
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const answer = await post('/v1/auth/password/reset', { email });
        expect(answer.status).toBe(202);
        expect(answer.json).toEqual({ status: 'reset_sent' });
      }
      await linkIn(email, /reset-password\?token=(rst_[^\s"<]+)/, 4);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await fx.api.mailTo(email)).filter((mail) => /rst_/.test(mail))).toHaveLength(3);
    });
  });
}
