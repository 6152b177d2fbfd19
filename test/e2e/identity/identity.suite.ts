import type { InviteService } from '@svc/domain';
import { InviteServiceToken } from '@svc/http-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, eventually, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { problemOf, type RawAnswer, send } from '../../support/http.js';

const DASHBOARD = 'http://localhost:3000';
const PASSWORD = 'correct horse battery';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let sequence = 0;
/** A fresh address per test, so tests never depend on each other's accounts. */
function freshEmail(): string {
  sequence += 1;
  return `user${sequence}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/** The session cookie value a Set-Cookie header carries, or undefined. */
function sessionCookieOf(answer: RawAnswer): string | undefined {
  return /svc_session=([^;]*)/.exec(answer.headers['set-cookie'] ?? '')?.[1];
}

/** Drives the identity surface through HTTP: everything a person needs to get and use a credential. */
export function runIdentitySuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(
    `identity through HTTP on ${storage} (spec 4.8, 4.9, 5.1–5.3)`,
    () => {
      let api: ApiHarness;
      beforeAll(async () => {
        api = await startApi(storage);
      }, 60_000);
      afterAll(async () => {
        await api?.close();
      });

      const post = (path: string, body: object, headers: Record<string, string> = {}) =>
        send(`${api.url}${path}`, { method: 'POST', body, headers });
      const withCookie = (cookie: string, extra: Record<string, string> = {}) => ({
        cookie: `svc_session=${cookie}`,
        ...extra,
      });

      async function linkIn(email: string, pattern: RegExp, count = 1): Promise<string> {
        const mails = await eventually(
          () => api.mailTo(email),
          (found) => found.length >= count,
        );
        const match = pattern.exec(mails[count - 1] ?? '');
        if (match?.[1] === undefined) throw new Error(`no link matching ${pattern} in mail to ${email}`);
        return decodeURIComponent(match[1]);
      }

      /** Signs up and verifies an address; returns its session cookie. */
      async function signedIn(
        email = freshEmail(),
        password = PASSWORD,
      ): Promise<{ email: string; cookie: string }> {
        expect((await post('/v1/auth/signup', { email, password })).status).toBe(202);
        const token = await linkIn(email, /verify-email\?token=([^\s"<]+)/);
        expect((await post('/v1/auth/verify', { token })).status).toBe(200);
        const login = await post('/v1/auth/login', { email, password });
        expect(login.status).toBe(200);
        const cookie = sessionCookieOf(login);
        if (cookie === undefined) throw new Error('no session cookie');
        return { email, cookie };
      }

      async function tokenFor(cookie: string, scopes: string[]): Promise<{ id: string; secret: string }> {
        const created = await post('/v1/tokens', { name: 'ci', scopes }, withCookie(cookie));
        expect(created.status).toBe(201);
        const body = created.json as { token: { id: string }; secret: string };
        return { id: body.token.id, secret: body.secret };
      }

      describe('signup and verification (4.8)', () => {
        it('GET /v1/auth/signup-mode names the mode and whether a waitlist exists', async () => {
          const answer = await send(`${api.url}/v1/auth/signup-mode`);
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
            () => api.mailTo(email),
            (found) => found.length >= 2,
          );
          await new Promise((resolve) => setTimeout(resolve, 200));
          const all = await api.mailTo(email);
          expect(all).toHaveLength(2);
          expect(mails[1]).toMatch(/already has an account/i);
          api.clock.advance(61_000);
          await post('/v1/auth/signup', { email, password: 'another password 3' });
          await eventually(
            () => api.mailTo(email),
            (found) => found.length >= 3,
          );
          expect(await api.mailTo(email)).toHaveLength(3);
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
          expect(
            (await post('/v1/auth/signup', { email: freshEmail(), password: '🔒'.repeat(12) })).status,
          ).toBe(202);
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
          api.clock.advance(DAY + 1_000);
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

      describe('password sign-in and sessions (5.2)', () => {
        it('sets an HttpOnly, SameSite=Lax, Path=/ session cookie (not Secure in development)', async () => {
          const { email } = await signedIn();
          const login = await post('/v1/auth/login', { email, password: PASSWORD });
          const header = login.headers['set-cookie'] ?? '';
          expect(header).toMatch(/^svc_session=[A-Za-z0-9_-]{43};/);
          expect(header).toMatch(/HttpOnly/);
          expect(header).toMatch(/SameSite=Lax/);
          expect(header).toMatch(/Path=\//);
          expect(header).not.toMatch(/Secure/);
          expect((login.json as { account: { email: string } }).account.email).toBe(email);
        });

        it('refuses a wrong password and an unknown address alike with 401 invalid_credentials', async () => {
          const { email } = await signedIn();
          const wrong = await post('/v1/auth/login', { email, password: 'not the password' });
          const unknown = await post('/v1/auth/login', { email: freshEmail(), password: PASSWORD });
          expect(wrong.status).toBe(401);
          expect(problemOf(wrong).code).toBe('invalid_credentials');
          expect(problemOf(unknown).code).toBe('invalid_credentials');
        });

        it('slows password sign-in after failures: the third attempt comes 200 ms after the second at the soonest', async () => {
          const { email } = await signedIn();
          expect((await post('/v1/auth/login', { email, password: 'wrong password 1' })).status).toBe(401);
          api.clock.advance(100);
          expect((await post('/v1/auth/login', { email, password: 'wrong password 2' })).status).toBe(401);
          api.clock.advance(199);
          const early = await post('/v1/auth/login', { email, password: PASSWORD });
          expect(early.status).toBe(429);
          expect(problemOf(early).code).toBe('rate_limited');
          expect(early.headers['retry-after']).toBe('1');
          api.clock.advance(1);
          expect((await post('/v1/auth/login', { email, password: PASSWORD })).status).toBe(200);
        });

        it('GET /v1/auth/me answers the account for a session and 401 unauthenticated without one', async () => {
          const { email, cookie } = await signedIn();
          const me = await send(`${api.url}/v1/auth/me`, { headers: withCookie(cookie) });
          expect(me.status).toBe(200);
          expect((me.json as { account: { email: string } }).account.email).toBe(email);
          const none = await send(`${api.url}/v1/auth/me`);
          expect(none.status).toBe(401);
          expect(problemOf(none).code).toBe('unauthenticated');
          const forged = await send(`${api.url}/v1/auth/me`, { headers: withCookie('forged-token') });
          expect(problemOf(forged).code).toBe('unauthenticated');
        });

        it('signs in again from a browser still holding an ended session cookie', async () => {
          const { email, cookie } = await signedIn();
          await send(`${api.url}/v1/auth/logout`, { method: 'POST', headers: withCookie(cookie) });
          const again = await post('/v1/auth/login', { email, password: PASSWORD }, withCookie(cookie));
          expect(again.status).toBe(200);
          expect(sessionCookieOf(again)).not.toBe(cookie);
          expect((await send(`${api.url}/v1/meta`, { headers: withCookie(cookie) })).status).toBe(200);
        });

        it('signing in again from a browser with a live session replaces it: one session per browser', async () => {
          const { email, cookie } = await signedIn();
          const sessionsOf = async (of: string) =>
            (
              (await send(`${api.url}/v1/auth/sessions`, { headers: withCookie(of) })).json as {
                sessions: { id: string; current: boolean }[];
              }
            ).sessions;
          // Another browser of the same account, and another account in this browser's cookie jar.
          const elsewhere =
            sessionCookieOf(await post('/v1/auth/login', { email, password: PASSWORD })) ?? '';
          const stranger = await signedIn();

          // Confirming it is the person (step-up) signs in again with the session cookie presented.
          const again = await post('/v1/auth/login', { email, password: PASSWORD }, withCookie(cookie));
          expect(again.status).toBe(200);
          const renewed = sessionCookieOf(again) ?? '';
          expect(renewed).not.toBe(cookie);
          expect((await send(`${api.url}/v1/auth/me`, { headers: withCookie(cookie) })).status).toBe(401);
          const sessions = await sessionsOf(renewed);
          expect(sessions).toHaveLength(2);
          expect(sessions.filter((session) => session.current)).toHaveLength(1);
          expect((await send(`${api.url}/v1/auth/me`, { headers: withCookie(elsewhere) })).status).toBe(200);

          // Another account's session named by the cookie is never ended by this sign-in.
          const mixed = await post(
            '/v1/auth/login',
            { email, password: PASSWORD },
            withCookie(stranger.cookie),
          );
          expect(mixed.status).toBe(200);
          expect((await send(`${api.url}/v1/auth/me`, { headers: withCookie(stranger.cookie) })).status).toBe(
            200,
          );
          // A wrong password ends nothing.
          const wrong = await post(
            '/v1/auth/login',
            { email, password: 'not the password' },
            withCookie(renewed),
          );
          expect(wrong.status).toBe(401);
          expect((await send(`${api.url}/v1/auth/me`, { headers: withCookie(renewed) })).status).toBe(200);
        });

        it('logout ends the session and clears the cookie', async () => {
          const { cookie } = await signedIn();
          const out = await send(`${api.url}/v1/auth/logout`, {
            method: 'POST',
            headers: withCookie(cookie),
          });
          expect(out.status).toBe(204);
          expect(out.headers['set-cookie']).toMatch(/svc_session=;.*Expires=Thu, 01 Jan 1970/);
          const after = await send(`${api.url}/v1/auth/me`, { headers: withCookie(cookie) });
          expect(after.status).toBe(401);
        });

        it('lists sessions with the current one marked, signs out others, and one by id', async () => {
          const { email, cookie } = await signedIn();
          const second = sessionCookieOf(await post('/v1/auth/login', { email, password: PASSWORD })) ?? '';
          const third = sessionCookieOf(await post('/v1/auth/login', { email, password: PASSWORD })) ?? '';
          const list = await send(`${api.url}/v1/auth/sessions`, { headers: withCookie(cookie) });
          expect(list.status).toBe(200);
          const sessions = (list.json as { sessions: { id: string; current: boolean; method: string }[] })
            .sessions;
          expect(sessions).toHaveLength(3);
          expect(sessions.filter((session) => session.current)).toHaveLength(1);
          expect(sessions.every((session) => session.method === 'password')).toBe(true);

          const thirdId = (
            (await send(`${api.url}/v1/auth/sessions`, { headers: withCookie(third) })).json as {
              sessions: { id: string; current: boolean }[];
            }
          ).sessions.find((session) => session.current)?.id;
          const one = await send(`${api.url}/v1/auth/sessions/${thirdId}`, {
            method: 'DELETE',
            headers: withCookie(cookie),
          });
          expect(one.status).toBe(204);
          expect((await send(`${api.url}/v1/auth/me`, { headers: withCookie(third) })).status).toBe(401);

          const others = await send(`${api.url}/v1/auth/sessions`, {
            method: 'DELETE',
            headers: withCookie(cookie),
          });
          expect(others.status).toBe(200);
          expect(others.json).toEqual({ revoked: 1 });
          expect((await send(`${api.url}/v1/auth/me`, { headers: withCookie(second) })).status).toBe(401);
          expect((await send(`${api.url}/v1/auth/me`, { headers: withCookie(cookie) })).status).toBe(200);
        });

        it('answers 404 for another account’s session id (tenant isolation)', async () => {
          const mine = await signedIn();
          const theirs = await signedIn();
          const theirList = await send(`${api.url}/v1/auth/sessions`, { headers: withCookie(theirs.cookie) });
          const theirId = (theirList.json as { sessions: { id: string }[] }).sessions[0]?.id;
          const answer = await send(`${api.url}/v1/auth/sessions/${theirId}`, {
            method: 'DELETE',
            headers: withCookie(mine.cookie),
          });
          expect(answer.status).toBe(404);
          expect(problemOf(answer).code).toBe('not_found');
          expect((await send(`${api.url}/v1/auth/me`, { headers: withCookie(theirs.cookie) })).status).toBe(
            200,
          );
        });

        it('renews the token on the first request after 24 h; the previous one works a few seconds', async () => {
          const { cookie } = await signedIn();
          api.clock.advance(DAY + 60_000);
          const [first, racing] = await Promise.all([
            send(`${api.url}/v1/auth/me`, { headers: withCookie(cookie) }),
            send(`${api.url}/v1/auth/me`, { headers: withCookie(cookie) }),
          ]);
          expect(first.status).toBe(200);
          expect(racing.status).toBe(200);
          const renewed = sessionCookieOf(first) ?? sessionCookieOf(racing);
          expect(renewed).toBeDefined();
          expect(renewed).not.toBe(cookie);
          expect((await send(`${api.url}/v1/auth/me`, { headers: withCookie(cookie) })).status).toBe(200);
          api.clock.advance(60_000);
          expect((await send(`${api.url}/v1/auth/me`, { headers: withCookie(cookie) })).status).toBe(401);
          const fresh = await send(`${api.url}/v1/auth/me`, { headers: withCookie(renewed ?? '') });
          expect(fresh.status).toBe(200);
          expect(fresh.headers['set-cookie']).toBeUndefined();
        });

        it('ends a session after 7 days unused and after 30 days from sign-in', async () => {
          const idle = await signedIn();
          api.clock.advance(7 * DAY + 60_000);
          expect((await send(`${api.url}/v1/auth/me`, { headers: withCookie(idle.cookie) })).status).toBe(
            401,
          );

          let { cookie } = await signedIn();
          for (let day = 0; day < 30; day += 5) {
            api.clock.advance(5 * DAY);
            const answer = await send(`${api.url}/v1/auth/me`, { headers: withCookie(cookie) });
            if (day < 25) expect(answer.status).toBe(200);
            cookie = sessionCookieOf(answer) ?? cookie;
          }
          api.clock.advance(60_000);
          expect((await send(`${api.url}/v1/auth/me`, { headers: withCookie(cookie) })).status).toBe(401);
        });

        it('rejects a cookie write from a foreign origin and a login from one with 403 csrf_rejected', async () => {
          const { email, cookie } = await signedIn();
          const write = await send(`${api.url}/v1/auth/logout`, {
            method: 'POST',
            headers: withCookie(cookie, { origin: 'https://evil.example' }),
          });
          expect(write.status).toBe(403);
          expect(problemOf(write).code).toBe('csrf_rejected');
          const login = await post(
            '/v1/auth/login',
            { email, password: PASSWORD },
            { origin: 'https://evil.example' },
          );
          expect(problemOf(login).code).toBe('csrf_rejected');
          const fromDashboard = await send(`${api.url}/v1/auth/logout`, {
            method: 'POST',
            headers: withCookie(cookie, { origin: DASHBOARD }),
          });
          expect(fromDashboard.status).toBe(204);
        });
      });

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
          expect((await send(`${api.url}/v1/auth/me`, { headers: withCookie(other) })).status).toBe(401);
          expect((await send(`${api.url}/v1/auth/me`, { headers: withCookie(cookie) })).status).toBe(200);
          const notice = await eventually(
            () => api.mailTo(email),
            (found) => found.length >= 2,
          );
          expect(notice[1]).toMatch(/was changed, and every other session was signed out/);
          expect((await post('/v1/auth/login', { email, password: PASSWORD })).status).toBe(401);
          // The failure spaces the next attempt of the address by 100 ms (spec 5.2.3).
          api.clock.advance(100);
          expect((await post('/v1/auth/login', { email, password: 'a brand new password' })).status).toBe(
            200,
          );
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
          expect((await send(`${api.url}/v1/auth/me`, { headers: withCookie(cookie) })).status).toBe(401);
          expect((await post('/v1/auth/login', { email, password: 'reset password 123' })).status).toBe(200);
          const again = await post('/v1/auth/password/reset/confirm', {
            token,
            new_password: 'reset password 456',
          });
          expect(problemOf(again).code).toBe('token_used');

          await post('/v1/auth/password/reset', { email });
          const mails = await eventually(
            () => api.mailTo(email),
            (found) => found.some((mail, index) => index > 2 && /rst_/.test(mail)),
          );
          const late = /reset-password\?token=(rst_[^\s"<]+)/.exec(mails.at(-1) ?? '')?.[1] ?? '';
          api.clock.advance(HOUR + 1_000);
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
          expect((await api.mailTo(email)).filter((mail) => /rst_/.test(mail))).toHaveLength(3);
        });
      });

      describe('API tokens and scopes (4.9, 5.3, 5.4)', () => {
        it('creates a token once: 201 with Location, the record, and an svc_ secret of 52 characters', async () => {
          const { cookie } = await signedIn();
          const created = await post(
            '/v1/tokens',
            { name: 'deploy', scopes: ['profiles:read', 'account:read'] },
            withCookie(cookie),
          );
          expect(created.status).toBe(201);
          const body = created.json as { token: Record<string, unknown>; secret: string };
          expect(body.secret).toMatch(/^svc_[A-Za-z0-9]{52}$/);
          expect(created.headers.location).toBe(`/v1/tokens/${body.token.id}`);
          expect(body.token).toMatchObject({ name: 'deploy', scopes: ['profiles:read', 'account:read'] });
          expect(JSON.stringify(body.token)).not.toContain(body.secret);
          const listed = await send(`${api.url}/v1/tokens`, {
            headers: { authorization: `Bearer ${body.secret}` },
          });
          expect(listed.status).toBe(200);
          const tokens = (listed.json as { tokens: Record<string, unknown>[] }).tokens;
          expect(tokens).toHaveLength(1);
          expect(JSON.stringify(tokens)).not.toContain(body.secret);
          expect(tokens[0]?.last_used_at).toEqual(expect.any(String));
        });

        it('authenticates GET /v1/auth/me with a token holding account:read; others get insufficient_scope', async () => {
          const { email, cookie } = await signedIn();
          const reader = await tokenFor(cookie, ['account:read']);
          const me = await send(`${api.url}/v1/auth/me`, {
            headers: { authorization: `Bearer ${reader.secret}` },
          });
          expect((me.json as { account: { email: string } }).account.email).toBe(email);
          const narrow = await tokenFor(cookie, ['profiles:read']);
          const refused = await send(`${api.url}/v1/tokens`, {
            headers: { authorization: `Bearer ${narrow.secret}` },
          });
          expect(refused.status).toBe(403);
          expect(problemOf(refused).code).toBe('insufficient_scope');
        });

        it('lets only a session create or revoke tokens (403 session_required)', async () => {
          const { cookie } = await signedIn();
          const { id, secret } = await tokenFor(cookie, ['account:read']);
          const create = await post(
            '/v1/tokens',
            { name: 'x', scopes: ['account:read'] },
            { authorization: `Bearer ${secret}` },
          );
          expect(problemOf(create).code).toBe('session_required');
          const revoke = await send(`${api.url}/v1/tokens/${id}`, {
            method: 'DELETE',
            headers: { authorization: `Bearer ${secret}` },
          });
          expect(problemOf(revoke).code).toBe('session_required');
        });

        it('revokes a token: 204, then the token answers 401 and a second revoke 404', async () => {
          const { cookie } = await signedIn();
          const { id, secret } = await tokenFor(cookie, ['account:read']);
          const revoked = await send(`${api.url}/v1/tokens/${id}`, {
            method: 'DELETE',
            headers: withCookie(cookie),
          });
          expect(revoked.status).toBe(204);
          const after = await send(`${api.url}/v1/auth/me`, {
            headers: { authorization: `Bearer ${secret}` },
          });
          expect(after.status).toBe(401);
          expect(problemOf(after).code).toBe('unauthenticated');
          const again = await send(`${api.url}/v1/tokens/${id}`, {
            method: 'DELETE',
            headers: withCookie(cookie),
          });
          expect(again.status).toBe(404);
        });

        it('answers 404 when revoking another organisation’s token, which keeps working', async () => {
          const mine = await signedIn();
          const theirs = await signedIn();
          const token = await tokenFor(theirs.cookie, ['account:read']);
          const answer = await send(`${api.url}/v1/tokens/${token.id}`, {
            method: 'DELETE',
            headers: withCookie(mine.cookie),
          });
          expect(answer.status).toBe(404);
          expect(problemOf(answer).code).toBe('not_found');
          const still = await send(`${api.url}/v1/auth/me`, {
            headers: { authorization: `Bearer ${token.secret}` },
          });
          expect(still.status).toBe(200);
          const mineList = await send(`${api.url}/v1/tokens`, { headers: withCookie(mine.cookie) });
          expect((mineList.json as { tokens: unknown[] }).tokens).toHaveLength(0);
        });

        it('refuses the admin scope to an account that is not an operator with 403 insufficient_scope', async () => {
          const { cookie } = await signedIn();
          const answer = await post('/v1/tokens', { name: 'ops', scopes: ['admin'] }, withCookie(cookie));
          expect(answer.status).toBe(403);
          expect(problemOf(answer).code).toBe('insufficient_scope');
        });

        it('validates the body: unknown scopes, empty names and past expiries are 422 with fields', async () => {
          const { cookie } = await signedIn();
          const bad = await post('/v1/tokens', { name: '', scopes: ['everything'] }, withCookie(cookie));
          expect(bad.status).toBe(422);
          const fields = (problemOf(bad).errors as { field: string }[]).map((error) => error.field).sort();
          expect(fields).toEqual(['name', 'scopes.0']);
          const past = await post(
            '/v1/tokens',
            { name: 'old', scopes: ['account:read'], expires_at: '2001-01-01T00:00:00Z' },
            withCookie(cookie),
          );
          expect(problemOf(past).errors).toEqual([{ field: 'expires_at', message: 'must be in the future' }]);
        });

        it('stops accepting a token at its expiry', async () => {
          const { cookie } = await signedIn();
          const expiresAt = new Date(api.clock.now().getTime() + HOUR).toISOString();
          const created = await post(
            '/v1/tokens',
            { name: 'short', scopes: ['account:read'], expires_at: expiresAt },
            withCookie(cookie),
          );
          const { secret, token } = created.json as { secret: string; token: { expires_at: string } };
          expect(token.expires_at).toBe(expiresAt);
          const auth = { authorization: `Bearer ${secret}` };
          expect((await send(`${api.url}/v1/auth/me`, { headers: auth })).status).toBe(200);
          api.clock.advance(HOUR);
          expect((await send(`${api.url}/v1/auth/me`, { headers: auth })).status).toBe(401);
        });

        it('pages tokens newest first with sealed cursors; a modified cursor is 400 invalid_cursor', async () => {
          const { cookie } = await signedIn();
          for (const name of ['one', 'two', 'three']) {
            await post('/v1/tokens', { name, scopes: ['account:read'] }, withCookie(cookie));
            api.clock.advance(1_000);
          }
          const first = await send(`${api.url}/v1/tokens?limit=2`, { headers: withCookie(cookie) });
          const page = first.json as { tokens: { name: string }[]; next_cursor: string };
          expect(page.tokens.map((token) => token.name)).toEqual(['three', 'two']);
          const second = await send(`${api.url}/v1/tokens?limit=2&cursor=${page.next_cursor}`, {
            headers: withCookie(cookie),
          });
          const last = second.json as { tokens: { name: string }[]; next_cursor: string | null };
          expect(last.tokens.map((token) => token.name)).toEqual(['one']);
          expect(last.next_cursor).toBeNull();
          const tampered = await send(`${api.url}/v1/tokens?cursor=${page.next_cursor}x`, {
            headers: withCookie(cookie),
          });
          expect(tampered.status).toBe(400);
          expect(problemOf(tampered).code).toBe('invalid_cursor');
        });

        it('replays a token creation repeated with the same Idempotency-Key', async () => {
          const { cookie } = await signedIn();
          const headers = withCookie(cookie, { 'idempotency-key': 'create-token-1' });
          const first = await post('/v1/tokens', { name: 'once', scopes: ['account:read'] }, headers);
          const again = await post('/v1/tokens', { name: 'once', scopes: ['account:read'] }, headers);
          expect(again.status).toBe(201);
          expect(again.headers['idempotent-replayed']).toBe('true');
          expect(again.text).toBe(first.text);
          const listed = await send(`${api.url}/v1/tokens`, { headers: withCookie(cookie) });
          expect((listed.json as { tokens: unknown[] }).tokens).toHaveLength(1);
        });

        it('answers 401 unauthenticated for a malformed or unknown bearer token and node tokens', async () => {
          for (const value of [
            'Bearer svc_short',
            `Bearer svc_${'A'.repeat(52)}`,
            'Bearer svcnode_abc',
            'Basic abc',
          ]) {
            const answer = await send(`${api.url}/v1/auth/me`, { headers: { authorization: value } });
            expect(answer.status).toBe(401);
            expect(problemOf(answer).code).toBe('unauthenticated');
          }
        });
      });

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
          const confirmed = await send(
            `${closed.url}/v1/waitlist/confirm?token=${encodeURIComponent(token)}`,
          );
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
    },
  );
}
