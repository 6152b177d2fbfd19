import { describe, expect, it } from 'vitest';
import { problemOf, send } from '../../support/http.js';
import {
  DASHBOARD,
  DAY,
  freshEmail,
  type IdentityFixture,
  PASSWORD,
  sessionCookieOf,
} from './identity.fixture.js';

/** Password sign-in and the sessions it opens (spec 5.2). */
export function identitySessions(fx: IdentityFixture): void {
  const { post, withCookie, signedIn } = fx;
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
      fx.api.clock.advance(100);
      expect((await post('/v1/auth/login', { email, password: 'wrong password 2' })).status).toBe(401);
      fx.api.clock.advance(199);
      const early = await post('/v1/auth/login', { email, password: PASSWORD });
      expect(early.status).toBe(429);
      expect(problemOf(early).code).toBe('rate_limited');
      expect(early.headers['retry-after']).toBe('1');
      fx.api.clock.advance(1);
      expect((await post('/v1/auth/login', { email, password: PASSWORD })).status).toBe(200);
    });

    it('GET /v1/auth/me answers the account for a session and 401 unauthenticated without one', async () => {
      const { email, cookie } = await signedIn();
      const me = await send(`${fx.api.url}/v1/auth/me`, { headers: withCookie(cookie) });
      expect(me.status).toBe(200);
      expect((me.json as { account: { email: string } }).account.email).toBe(email);
      const none = await send(`${fx.api.url}/v1/auth/me`);
      expect(none.status).toBe(401);
      expect(problemOf(none).code).toBe('unauthenticated');
      const forged = await send(`${fx.api.url}/v1/auth/me`, { headers: withCookie('forged-token') });
      expect(problemOf(forged).code).toBe('unauthenticated');
    });

    it("GET /v1/auth/status answers 200 signed in or not: the session's account, else null (no 401 to log)", async () => {
      const { email, cookie } = await signedIn();
      const status = (headers?: Record<string, string>) =>
        send(`${fx.api.url}/v1/auth/status`, headers === undefined ? {} : { headers });
      const live = await status(withCookie(cookie));
      expect(live.status).toBe(200);
      expect((live.json as { account: { email: string } }).account.email).toBe(email);
      // No cookie, a forged one, an API token (not a session): signed out, said with a 200.
      expect(await status()).toMatchObject({ status: 200, json: { account: null } });
      expect(await status(withCookie('forged-token'))).toMatchObject({
        status: 200,
        json: { account: null },
      });
      const token = await fx.tokenFor(cookie, ['account:read']);
      expect(await status({ authorization: `Bearer ${token.secret}` })).toMatchObject({
        status: 200,
        json: { account: null },
      });
      // A session that ended is signed out too, not an error.
      await send(`${fx.api.url}/v1/auth/logout`, { method: 'POST', headers: withCookie(cookie) });
      expect(await status(withCookie(cookie))).toMatchObject({ status: 200, json: { account: null } });
    });

    it('signs in again from a browser still holding an ended session cookie', async () => {
      const { email, cookie } = await signedIn();
      await send(`${fx.api.url}/v1/auth/logout`, { method: 'POST', headers: withCookie(cookie) });
      const again = await post('/v1/auth/login', { email, password: PASSWORD }, withCookie(cookie));
      expect(again.status).toBe(200);
      expect(sessionCookieOf(again)).not.toBe(cookie);
      expect((await send(`${fx.api.url}/v1/meta`, { headers: withCookie(cookie) })).status).toBe(200);
    });

    it('signing in again from a browser with a live session replaces it: one session per browser', async () => {
      const { email, cookie } = await signedIn();
      const sessionsOf = async (of: string) =>
        (
          (await send(`${fx.api.url}/v1/auth/sessions`, { headers: withCookie(of) })).json as {
            sessions: { id: string; current: boolean }[];
          }
        ).sessions;
      // Another browser of the same account, and another account in this browser's cookie jar.
      const elsewhere = sessionCookieOf(await post('/v1/auth/login', { email, password: PASSWORD })) ?? '';
      const stranger = await signedIn();

      // Confirming it is the person (step-up) signs in again with the session cookie presented.
      const again = await post('/v1/auth/login', { email, password: PASSWORD }, withCookie(cookie));
      expect(again.status).toBe(200);
      const renewed = sessionCookieOf(again) ?? '';
      expect(renewed).not.toBe(cookie);
      expect((await send(`${fx.api.url}/v1/auth/me`, { headers: withCookie(cookie) })).status).toBe(401);
      const sessions = await sessionsOf(renewed);
      expect(sessions).toHaveLength(2);
      expect(sessions.filter((session) => session.current)).toHaveLength(1);
      expect((await send(`${fx.api.url}/v1/auth/me`, { headers: withCookie(elsewhere) })).status).toBe(200);

      // Another account's session named by the cookie is never ended by this sign-in.
      const mixed = await post('/v1/auth/login', { email, password: PASSWORD }, withCookie(stranger.cookie));
      expect(mixed.status).toBe(200);
      expect((await send(`${fx.api.url}/v1/auth/me`, { headers: withCookie(stranger.cookie) })).status).toBe(
        200,
      );
      // A wrong password ends nothing.
      const wrong = await post(
        '/v1/auth/login',
        { email, password: 'not the password' },
        withCookie(renewed),
      );
      expect(wrong.status).toBe(401);
      expect((await send(`${fx.api.url}/v1/auth/me`, { headers: withCookie(renewed) })).status).toBe(200);
    });

    it('logout ends the session and clears the cookie', async () => {
      const { cookie } = await signedIn();
      const out = await send(`${fx.api.url}/v1/auth/logout`, {
        method: 'POST',
        headers: withCookie(cookie),
      });
      expect(out.status).toBe(204);
      expect(out.headers['set-cookie']).toMatch(/svc_session=;.*Expires=Thu, 01 Jan 1970/);
      const after = await send(`${fx.api.url}/v1/auth/me`, { headers: withCookie(cookie) });
      expect(after.status).toBe(401);
    });

    it('lists sessions with the current one marked, signs out others, and one by id', async () => {
      const { email, cookie } = await signedIn();
      const second = sessionCookieOf(await post('/v1/auth/login', { email, password: PASSWORD })) ?? '';
      const third = sessionCookieOf(await post('/v1/auth/login', { email, password: PASSWORD })) ?? '';
      const list = await send(`${fx.api.url}/v1/auth/sessions`, { headers: withCookie(cookie) });
      expect(list.status).toBe(200);
      const sessions = (list.json as { sessions: { id: string; current: boolean; method: string }[] })
        .sessions;
      expect(sessions).toHaveLength(3);
      expect(sessions.filter((session) => session.current)).toHaveLength(1);
      expect(sessions.every((session) => session.method === 'password')).toBe(true);

      const thirdId = (
        (await send(`${fx.api.url}/v1/auth/sessions`, { headers: withCookie(third) })).json as {
          sessions: { id: string; current: boolean }[];
        }
      ).sessions.find((session) => session.current)?.id;
      const one = await send(`${fx.api.url}/v1/auth/sessions/${thirdId}`, {
        method: 'DELETE',
        headers: withCookie(cookie),
      });
      expect(one.status).toBe(204);
      expect((await send(`${fx.api.url}/v1/auth/me`, { headers: withCookie(third) })).status).toBe(401);

      const others = await send(`${fx.api.url}/v1/auth/sessions`, {
        method: 'DELETE',
        headers: withCookie(cookie),
      });
      expect(others.status).toBe(200);
      expect(others.json).toEqual({ revoked: 1 });
      expect((await send(`${fx.api.url}/v1/auth/me`, { headers: withCookie(second) })).status).toBe(401);
      expect((await send(`${fx.api.url}/v1/auth/me`, { headers: withCookie(cookie) })).status).toBe(200);
    });

    it('answers 404 for another account’s session id (tenant isolation)', async () => {
      const mine = await signedIn();
      const theirs = await signedIn();
      const theirList = await send(`${fx.api.url}/v1/auth/sessions`, { headers: withCookie(theirs.cookie) });
      const theirId = (theirList.json as { sessions: { id: string }[] }).sessions[0]?.id;
      const answer = await send(`${fx.api.url}/v1/auth/sessions/${theirId}`, {
        method: 'DELETE',
        headers: withCookie(mine.cookie),
      });
      expect(answer.status).toBe(404);
      expect(problemOf(answer).code).toBe('not_found');
      expect((await send(`${fx.api.url}/v1/auth/me`, { headers: withCookie(theirs.cookie) })).status).toBe(
        200,
      );
    });

    it('renews the token on the first request after 24 h; the previous one works a few seconds', async () => {
      const { cookie } = await signedIn();
      fx.api.clock.advance(DAY + 60_000);
      const [first, racing] = await Promise.all([
        send(`${fx.api.url}/v1/auth/me`, { headers: withCookie(cookie) }),
        send(`${fx.api.url}/v1/auth/me`, { headers: withCookie(cookie) }),
      ]);
      expect(first.status).toBe(200);
      expect(racing.status).toBe(200);
      const renewed = sessionCookieOf(first) ?? sessionCookieOf(racing);
      expect(renewed).toBeDefined();
      expect(renewed).not.toBe(cookie);
      expect((await send(`${fx.api.url}/v1/auth/me`, { headers: withCookie(cookie) })).status).toBe(200);
      fx.api.clock.advance(60_000);
      expect((await send(`${fx.api.url}/v1/auth/me`, { headers: withCookie(cookie) })).status).toBe(401);
      const fresh = await send(`${fx.api.url}/v1/auth/me`, { headers: withCookie(renewed ?? '') });
      expect(fresh.status).toBe(200);
      expect(fresh.headers['set-cookie']).toBeUndefined();
    });

    it('ends a session after 7 days unused and after 30 days from sign-in', async () => {
      const idle = await signedIn();
      fx.api.clock.advance(7 * DAY + 60_000);
      expect((await send(`${fx.api.url}/v1/auth/me`, { headers: withCookie(idle.cookie) })).status).toBe(401);

      let { cookie } = await signedIn();
      for (let day = 0; day < 30; day += 5) {
        fx.api.clock.advance(5 * DAY);
        const answer = await send(`${fx.api.url}/v1/auth/me`, { headers: withCookie(cookie) });
        if (day < 25) expect(answer.status).toBe(200);
        cookie = sessionCookieOf(answer) ?? cookie;
      }
      fx.api.clock.advance(60_000);
      expect((await send(`${fx.api.url}/v1/auth/me`, { headers: withCookie(cookie) })).status).toBe(401);
    });

    it('rejects a cookie write from a foreign origin and a login from one with 403 csrf_rejected', async () => {
      const { email, cookie } = await signedIn();
      const write = await send(`${fx.api.url}/v1/auth/logout`, {
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
      const fromDashboard = await send(`${fx.api.url}/v1/auth/logout`, {
        method: 'POST',
        headers: withCookie(cookie, { origin: DASHBOARD }),
      });
      expect(fromDashboard.status).toBe(204);
    });
  });
}
