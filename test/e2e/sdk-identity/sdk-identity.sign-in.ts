import { createClient, isApiError } from '@svc/sdk';
import { describe, expect, it } from 'vitest';
import {
  DASHBOARD,
  emailedToken,
  failureOf,
  freshEmail,
  PASSWORD,
  type SdkIdentityFixture,
  signedIn,
} from './sdk-identity.fixture.js';

/** Signup, sign-in, CSRF by Origin and sessions through the SDK (spec 4.8, 5.1, 5.2.4). */
export function sdkSignInAndSessions(fx: SdkIdentityFixture): void {
  describe('signup, verification and sign-in (4.8, 5.1)', () => {
    it('signs up, verifies with the emailed token and signs in keeping the session cookie', async () => {
      const client = createClient({ baseUrl: fx.app.url, origin: DASHBOARD });
      const email = freshEmail();
      expect(await client.auth.signupMode()).toEqual({ mode: 'open', waitlist: false });
      expect(await client.auth.signup({ email, password: PASSWORD })).toEqual({
        status: 'verification_sent',
      });

      const verified = await client.auth.verify(await emailedToken(fx.app, email, 'verify-email'));
      expect(verified.email).toBe(email);
      expect(verified.email_verified_at).not.toBeNull();
      expect(client.sessionCookie()).toBeUndefined();

      const account = await client.auth.login({ email, password: PASSWORD });
      expect(account.id).toBe(verified.id);
      expect(client.sessionCookie()).toMatch(/^\S+$/);
      expect((await client.auth.me()).id).toBe(account.id);

      const sessions = await client.auth.sessions.list();
      expect(sessions).toEqual([expect.objectContaining({ current: true, method: 'password' })]);
    });

    it('resends verification with the same answer whether or not the address is known', async () => {
      const client = createClient({ baseUrl: fx.app.url });
      expect(await client.auth.resendVerification(freshEmail())).toEqual({ status: 'verification_sent' });
    });

    it('refuses a wrong password with 401 invalid_credentials', async () => {
      const { email } = await signedIn(fx.app);
      const stranger = createClient({ baseUrl: fx.app.url });
      const failure = await failureOf(stranger.auth.login({ email, password: 'not the password at all' }));
      expect(failure.status).toBe(401);
      expect(failure.code).toBe('invalid_credentials');
      expect(stranger.sessionCookie()).toBeUndefined();
    });

    it('refuses a short password on signup with 422 password_too_short naming the field', async () => {
      const client = createClient({ baseUrl: fx.app.url });
      const failure = await failureOf(client.auth.signup({ email: freshEmail(), password: 'short' }));
      expect(failure.status).toBe(422);
      expect(isApiError(failure, 'password_too_short')).toBe(true);
      expect(failure.fieldErrors).toEqual([expect.objectContaining({ field: 'password' })]);
    });

    it('resumes a session from a saved cookie value', async () => {
      const { client, account } = await signedIn(fx.app);
      const resumed = createClient({ baseUrl: fx.app.url, sessionCookie: client.sessionCookie() });
      expect((await resumed.auth.me()).id).toBe(account.id);
    });

    it('logout ends the session and forgets the cookie; me() then answers 401', async () => {
      const { client } = await signedIn(fx.app);
      const saved = client.sessionCookie();
      await client.auth.logout();
      expect(client.sessionCookie()).toBeUndefined();
      const failure = await failureOf(client.auth.me());
      expect(failure.status).toBe(401);
      expect(failure.code).toBe('unauthenticated');
      const replayed = createClient({ baseUrl: fx.app.url, sessionCookie: saved });
      expect((await failureOf(replayed.auth.me())).status).toBe(401);
    });
  });

  describe('CSRF by Origin (5.2.4)', () => {
    it('accepts session writes from a dashboard origin or with no Origin, refuses a foreign one', async () => {
      const { client, email } = await signedIn(fx.app);
      expect((await client.tokens.create({ name: 'dashboard', scopes: ['account:read'] })).secret).toMatch(
        /^svc_/,
      );
      const noOrigin = createClient({ baseUrl: fx.app.url, sessionCookie: client.sessionCookie() });
      await noOrigin.tokens.create({ name: 'server-side', scopes: ['account:read'] });

      const foreign = createClient({ baseUrl: fx.app.url, origin: 'https://evil.example' });
      const login = await failureOf(foreign.auth.login({ email, password: PASSWORD }));
      expect(login.code).toBe('csrf_rejected');
      const hijack = createClient({
        baseUrl: fx.app.url,
        origin: 'https://evil.example',
        sessionCookie: client.sessionCookie(),
      });
      const write = await failureOf(hijack.tokens.create({ name: 'stolen', scopes: ['account:read'] }));
      expect(write.status).toBe(403);
      expect(write.code).toBe('csrf_rejected');
    });
  });

  describe('sessions (ROUTES.md)', () => {
    it('signs out every other session, then the current one, which clears the cookie', async () => {
      const { client, email } = await signedIn(fx.app);
      const laptop = createClient({ baseUrl: fx.app.url, origin: DASHBOARD });
      await laptop.auth.login({ email, password: PASSWORD });
      expect(await client.auth.sessions.list()).toHaveLength(2);

      expect(await client.auth.sessions.revokeOthers()).toEqual({ revoked: 1 });
      expect((await failureOf(laptop.auth.me())).code).toBe('unauthenticated');

      const [current] = await client.auth.sessions.list();
      expect(current?.current).toBe(true);
      await client.auth.sessions.revoke(current?.id ?? '');
      expect(client.sessionCookie()).toBeUndefined();
      expect((await failureOf(client.auth.me())).status).toBe(401);
    });
  });
}
