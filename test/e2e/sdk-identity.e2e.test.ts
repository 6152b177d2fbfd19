import { createTestApp, type TestApp } from '@svc/http-server';
import {
  type Account,
  ApiError,
  createClient,
  isApiError,
  type Paginator,
  type RevokedCount,
  type SvcClient,
  type TokenCreated,
  type TokenList,
  type TokenRecord,
  type WaitlistConfirmed,
} from '@svc/sdk';
import { ManualClock } from '@svc/testing/clock';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { eventually } from '../support/api-harness.js';

const DASHBOARD = 'http://localhost:3000';
const PASSWORD = 'correct horse battery';
const DAY = 24 * 3_600_000;

let sequence = 0;
/** A fresh address per test, so tests never depend on each other's accounts. */
function freshEmail(): string {
  sequence += 1;
  return `sdk${sequence}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/** The token of the `count`-th emailed link to `email` whose path matches `page` (e.g. `verify-email`). */
async function emailedToken(app: TestApp, email: string, page: string, count = 1): Promise<string> {
  const pattern = new RegExp(`/${page}\\?token=([^\\s"<]+)`);
  const links = await eventually(
    async () => app.mailer.to(email).flatMap((mail) => pattern.exec(mail.text)?.[1] ?? []),
    (found) => found.length >= count,
  );
  const link = links[count - 1];
  if (link === undefined) throw new Error(`no ${page} link in mail to ${email}`);
  return decodeURIComponent(link);
}

/** What a rejected promise rejected with, to assert on an ApiError's fields. */
async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  const failure = await promise.then(
    () => new Error('expected the call to fail'),
    (error: unknown) => error,
  );
  if (!(failure instanceof ApiError)) throw failure;
  return failure;
}

/** Signs up, verifies and signs in through the SDK; the client holds the session from then on. */
async function signedIn(
  app: TestApp,
  email = freshEmail(),
): Promise<{ client: SvcClient; email: string; account: Account }> {
  const client = createClient({ baseUrl: app.url, origin: DASHBOARD });
  await client.auth.signup({ email, password: PASSWORD });
  await client.auth.verify(await emailedToken(app, email, 'verify-email'));
  const account = await client.auth.login({ email, password: PASSWORD });
  return { client, email, account };
}

describe('SDK identity surface against the real server (spec 4.8, 4.9, 5.1–5.3)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => app.close());

  describe('signup, verification and sign-in (4.8, 5.1)', () => {
    it('signs up, verifies with the emailed token and signs in keeping the session cookie', async () => {
      const client = createClient({ baseUrl: app.url, origin: DASHBOARD });
      const email = freshEmail();
      expect(await client.auth.signupMode()).toEqual({ mode: 'open', waitlist: false });
      expect(await client.auth.signup({ email, password: PASSWORD })).toEqual({
        status: 'verification_sent',
      });

      const verified = await client.auth.verify(await emailedToken(app, email, 'verify-email'));
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
      const client = createClient({ baseUrl: app.url });
      expect(await client.auth.resendVerification(freshEmail())).toEqual({ status: 'verification_sent' });
    });

    it('refuses a wrong password with 401 invalid_credentials', async () => {
      const { email } = await signedIn(app);
      const stranger = createClient({ baseUrl: app.url });
      const failure = await failureOf(stranger.auth.login({ email, password: 'not the password at all' }));
      expect(failure.status).toBe(401);
      expect(failure.code).toBe('invalid_credentials');
      expect(stranger.sessionCookie()).toBeUndefined();
    });

    it('refuses a short password on signup with 422 password_too_short naming the field', async () => {
      const client = createClient({ baseUrl: app.url });
      const failure = await failureOf(client.auth.signup({ email: freshEmail(), password: 'short' }));
      expect(failure.status).toBe(422);
      expect(isApiError(failure, 'password_too_short')).toBe(true);
      expect(failure.fieldErrors).toEqual([expect.objectContaining({ field: 'password' })]);
    });

    it('resumes a session from a saved cookie value', async () => {
      const { client, account } = await signedIn(app);
      const resumed = createClient({ baseUrl: app.url, sessionCookie: client.sessionCookie() });
      expect((await resumed.auth.me()).id).toBe(account.id);
    });

    it('logout ends the session and forgets the cookie; me() then answers 401', async () => {
      const { client } = await signedIn(app);
      const saved = client.sessionCookie();
      await client.auth.logout();
      expect(client.sessionCookie()).toBeUndefined();
      const failure = await failureOf(client.auth.me());
      expect(failure.status).toBe(401);
      expect(failure.code).toBe('unauthenticated');
      const replayed = createClient({ baseUrl: app.url, sessionCookie: saved });
      expect((await failureOf(replayed.auth.me())).status).toBe(401);
    });
  });

  describe('CSRF by Origin (5.2.4)', () => {
    it('accepts session writes from a dashboard origin or with no Origin, refuses a foreign one', async () => {
      const { client, email } = await signedIn(app);
      expect((await client.tokens.create({ name: 'dashboard', scopes: ['account:read'] })).secret).toMatch(
        /^svc_/,
      );
      const noOrigin = createClient({ baseUrl: app.url, sessionCookie: client.sessionCookie() });
      await noOrigin.tokens.create({ name: 'server-side', scopes: ['account:read'] });

      const foreign = createClient({ baseUrl: app.url, origin: 'https://evil.example' });
      const login = await failureOf(foreign.auth.login({ email, password: PASSWORD }));
      expect(login.code).toBe('csrf_rejected');
      const hijack = createClient({
        baseUrl: app.url,
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
      const { client, email } = await signedIn(app);
      const laptop = createClient({ baseUrl: app.url, origin: DASHBOARD });
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

  describe('password change and reset (4.8)', () => {
    it('changes the password, signing out the other sessions', async () => {
      const { client, email } = await signedIn(app);
      const other = createClient({ baseUrl: app.url });
      await other.auth.login({ email, password: PASSWORD });
      const changed = await client.auth.changePassword({
        current_password: PASSWORD,
        new_password: 'a brand new passphrase',
      });
      expect(changed).toEqual({ revoked: 1 });
      expect((await client.auth.me()).email).toBe(email);
      await other.auth.login({ email, password: 'a brand new passphrase' });
    });

    it('resets a forgotten password with the emailed token, signing out every session', async () => {
      const { client, email } = await signedIn(app);
      const stranger = createClient({ baseUrl: app.url });
      expect(await stranger.auth.requestPasswordReset(email)).toEqual({ status: 'reset_sent' });
      const token = await emailedToken(app, email, 'reset-password');
      expect(token).toMatch(/^rst_/);
      expect(
        await stranger.auth.confirmPasswordReset({ token, new_password: 'reset passphrase 123' }),
      ).toEqual({ revoked: 1 });
      expect((await failureOf(client.auth.me())).status).toBe(401);
      const account = await stranger.auth.login({ email, password: 'reset passphrase 123' });
      expect(account.email).toBe(email);
      const reused = await failureOf(stranger.auth.confirmPasswordReset({ token, new_password: PASSWORD }));
      expect(reused.code).toBe('token_used');
    });
  });

  describe('API tokens (4.9, 5.3)', () => {
    it('creates a token whose secret authenticates another client, then revokes it', async () => {
      const { client, account } = await signedIn(app);
      const created = await client.tokens.create({ name: 'ci', scopes: ['account:read'] });
      expect(created.secret).toMatch(/^svc_.{52}$/);
      expect(created.token).toMatchObject({ name: 'ci', scopes: ['account:read'], expires_at: null });

      const ci = createClient({ baseUrl: app.url, token: created.secret });
      expect((await ci.auth.me()).id).toBe(account.id);
      expect((await ci.tokens.list().toArray()).map((token) => token.id)).toEqual([created.token.id]);
      const refused = await failureOf(ci.tokens.create({ name: 'child', scopes: ['account:read'] }));
      expect(refused.code).toBe('session_required');

      await client.tokens.revoke(created.token.id);
      const failure = await failureOf(ci.auth.me());
      expect(failure).toBeInstanceOf(ApiError);
      expect(failure.code).toBe('unauthenticated');
      expect(failure.status).toBe(401);
      expect(failure.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(await client.tokens.list().toArray()).toEqual([]);
    });

    it('lists tokens page after page with the auto-paging iterator', async () => {
      const { client } = await signedIn(app);
      const ids: string[] = [];
      for (const name of ['one', 'two', 'three'])
        ids.push((await client.tokens.create({ name, scopes: ['account:read'] })).token.id);

      const firstPage = await client.request<{ tokens: unknown[]; next_cursor: string | null }>({
        method: 'GET',
        path: '/v1/tokens',
        query: { limit: 2 },
      });
      expect(firstPage.data.tokens).toHaveLength(2);
      expect(firstPage.data.next_cursor).not.toBeNull();

      const collected = await client.tokens.list({ limit: 2 }).toArray();
      expect(collected.map((token) => token.id)).toEqual([...ids].reverse());
      const iterated: string[] = [];
      for await (const token of client.tokens.list({ limit: 2 })) iterated.push(token.name);
      expect(iterated).toEqual(['three', 'two', 'one']);

      // A page at a time, as a "load more" list fetches them.
      const pages = client.tokens.list({ limit: 2 });
      const first = await pages.page();
      expect(first.items.map((token) => token.name)).toEqual(['three', 'two']);
      expect(first.nextCursor).not.toBeNull();
      const last = await pages.page(first.nextCursor ?? undefined);
      expect(last.items.map((token) => token.name)).toEqual(['one']);
      expect(last.nextCursor).toBeNull();
    });

    it('reuses a given idempotency key: the same key answers the same token', async () => {
      const { client } = await signedIn(app);
      const first = await client.tokens.create(
        { name: 'once', scopes: ['account:read'] },
        { idempotencyKey: 'k1' },
      );
      const again = await client.tokens.create(
        { name: 'once', scopes: ['account:read'] },
        { idempotencyKey: 'k1' },
      );
      expect(again.token.id).toBe(first.token.id);
      expect(again.secret).toBe(first.secret);
      const fresh = await client.tokens.create({ name: 'once', scopes: ['account:read'] });
      expect(fresh.token.id).not.toBe(first.token.id);
      expect(await client.tokens.list().toArray()).toHaveLength(2);
    });
  });
});

describe('SDK identity types', () => {
  it('derives answer types from the domain schemas', () => {
    expectTypeOf<TokenCreated>().toEqualTypeOf<{ token: TokenRecord; secret: string }>();
    expectTypeOf<TokenList>().toEqualTypeOf<{ tokens: TokenRecord[]; next_cursor: string | null }>();
    expectTypeOf<RevokedCount>().toEqualTypeOf<{ revoked: number }>();
    expectTypeOf<WaitlistConfirmed>().toEqualTypeOf<{ status: 'confirmed'; email: string }>();
    expectTypeOf<SvcClient['tokens']['list']>().returns.toEqualTypeOf<Paginator<TokenRecord>>();
  });
});

describe('SDK session renewal (5.2.2)', () => {
  const clock = new ManualClock();
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ clock });
  });
  afterAll(async () => app.close());

  it('keeps the renewed cookie the server sends more than 24 h after sign-in', async () => {
    const { client, account } = await signedIn(app);
    const issued = client.sessionCookie();
    clock.advance(DAY + 60_000);
    expect((await client.auth.me()).id).toBe(account.id);
    const renewed = client.sessionCookie();
    expect(renewed).toBeDefined();
    expect(renewed).not.toBe(issued);
    clock.advance(60_000);
    expect((await client.auth.me()).id).toBe(account.id);
    const stale = createClient({ baseUrl: app.url, sessionCookie: issued });
    expect((await failureOf(stale.auth.me())).status).toBe(401);
  });
});

describe('SDK waitlist (ROUTES.md "Sign-in and account")', () => {
  let closed: TestApp;
  beforeAll(async () => {
    closed = await createTestApp({ env: { SVC_SIGNUP_MODE: 'closed' } });
  });
  afterAll(async () => closed.close());

  it('joins the waitlist and confirms the address once', async () => {
    const client = createClient({ baseUrl: closed.url });
    const email = freshEmail();
    expect(await client.auth.signupMode()).toEqual({ mode: 'closed', waitlist: true });
    expect((await failureOf(client.auth.signup({ email, password: PASSWORD }))).code).toBe('signup_closed');
    expect(await client.waitlist.join(email)).toEqual({ status: 'confirmation_sent' });
    const mails = await eventually(
      async () => closed.mailer.to(email),
      (found) => found.length > 0,
    );
    const token = decodeURIComponent(/token=([^\s"<]+)/.exec(mails[0]?.text ?? '')?.[1] ?? '');
    expect(await client.waitlist.confirm(token)).toEqual({ status: 'confirmed', email });
    expect((await failureOf(client.waitlist.confirm(token))).code).toBe('token_used');
  });
});
