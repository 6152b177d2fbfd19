import { createTestApp, type TestApp } from '@svc/http-server';
import {
  ApiError,
  createClient,
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
import { eventually } from '../../support/api-harness.js';
import {
  DAY,
  emailedToken,
  failureOf,
  freshEmail,
  PASSWORD,
  type SdkIdentityFixture,
  signedIn,
} from './sdk-identity.fixture.js';

/** Password change and reset, and API tokens through the SDK (spec 4.8, 4.9, 5.3). */
export function sdkPasswordsAndTokens(fx: SdkIdentityFixture): void {
  describe('password change and reset (4.8)', () => {
    it('changes the password, signing out the other sessions', async () => {
      const { client, email } = await signedIn(fx.app);
      const other = createClient({ baseUrl: fx.app.url });
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
      const { client, email } = await signedIn(fx.app);
      const stranger = createClient({ baseUrl: fx.app.url });
      expect(await stranger.auth.requestPasswordReset(email)).toEqual({ status: 'reset_sent' });
      const token = await emailedToken(fx.app, email, 'reset-password');
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
      const { client, account } = await signedIn(fx.app);
      const created = await client.tokens.create({ name: 'ci', scopes: ['account:read'] });
      expect(created.secret).toMatch(/^svc_.{52}$/);
      expect(created.token).toMatchObject({ name: 'ci', scopes: ['account:read'], expires_at: null });

      const ci = createClient({ baseUrl: fx.app.url, token: created.secret });
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
      const { client } = await signedIn(fx.app);
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
      const { client } = await signedIn(fx.app);
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
}

/** The SDK's identity types, session renewal and the waitlist, each on a server of its own settings. */
export function sdkIdentityOfOtherSettings(): void {
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
}
