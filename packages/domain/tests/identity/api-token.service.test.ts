import { ApiTokenService, IdentityLimits } from '@svc/domain';
import { describe, expect, it } from 'vitest';
import { AT_HOME, identityWorld, PASSWORD } from '../fixtures/identity-world.js';
import { codeOf, OTHER_ORG } from '../fixtures/memory-world.js';

const EMAIL = 'owner@example.com';
const SOURCE = { actor: 'account:owner' };
const READ = { name: 'ci', scopes: ['profiles:read' as const] };

/** An API token service on the memory stores, with a verified account signed in a moment ago. */
async function setUp() {
  const world = await identityWorld();
  const account = await world.register(EMAIL);
  const sut = new ApiTokenService(world.deps, world.cursors);
  const signIn = async (email = EMAIL) =>
    (await world.sessions.login({ email, password: PASSWORD }, AT_HOME)).session;
  return { ...world, sut, account, signIn, session: await signIn() };
}

describe(ApiTokenService.name, () => {
  describe('create (spec 4.9)', () => {
    it('shows an svc_ secret once, stores only its keyed hash, and audits token.created', async () => {
      const { sut, session, account, stores } = await setUp();
      const { token, secret } = await sut.create(session, READ, SOURCE);

      expect(secret).toMatch(/^svc_/);
      expect(token).toMatchObject({ name: 'ci', scopes: ['profiles:read'], prefix: secret.slice(0, 8) });
      expect(
        JSON.stringify(
          await stores.identity
            .repositories()
            .apiTokens.listByAccount(account.id, { limit: 10, after: null }),
        ),
      ).not.toContain(secret);
      const authenticated = await sut.authenticate(secret);
      expect([...(authenticated?.scopes ?? [])]).toEqual(['profiles:read']);
      const [entry] = await stores.auditLog.recent(account.orgId, 1);
      expect(entry).toMatchObject({ action: 'token.created', target: `tokens/${token.id}` });
    });

    it('needs a verified address (email_unverified) and a sign-in within five minutes (reauth_required)', async () => {
      const context = await setUp();
      await context.register('late@example.com', OTHER_ORG, { verified: false });
      const unverified = await context.signIn('late@example.com');
      expect(await codeOf(context.sut.create(unverified, READ))).toBe('email_unverified');

      context.clock.advance(IdentityLimits.stepUpWindowMs + 1);
      expect(await codeOf(context.sut.create(context.session, READ))).toBe('reauth_required');
      expect((await context.sut.list(context.account.id, 10, undefined)).tokens).toEqual([]);
    });

    it('grants admin only to an operator (insufficient_scope) signed in strongly (mfa_required)', async () => {
      const { sut, session, account, deps } = await setUp();
      const admin = { name: 'ops', scopes: ['admin' as const] };
      expect(await codeOf(sut.create(session, admin))).toBe('insufficient_scope');

      await deps.store.accounts.setOperator(account.id, true);
      expect(await codeOf(sut.create(session, admin))).toBe('mfa_required');
    });

    it('refuses an expiry in the past with validation_failed naming expires_at', async () => {
      const { sut, session, clock } = await setUp();
      const error = await sut
        .create(session, { ...READ, expires_at: clock.now().toISOString() })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'validation_failed', fieldErrors: [{ field: 'expires_at' }] });
    });
  });

  describe('authenticate (spec 5.3)', () => {
    it('ends a token at its expiry', async () => {
      const { sut, session, clock } = await setUp();
      const expiresAt = new Date(clock.now().getTime() + 60_000);
      const { secret } = await sut.create(session, { ...READ, expires_at: expiresAt.toISOString() });
      clock.advance(59_999);
      expect(await sut.authenticate(secret)).not.toBeNull();
      clock.advance(1);
      expect(await sut.authenticate(secret)).toBeNull();
    });

    it('drops admin from a token whose account lost the operator flag', async () => {
      const { sut, account, deps, clock, signIn } = await setUp();
      await deps.store.accounts.setOperator(account.id, true);
      const session = { ...(await signIn()), strong: true };
      const { secret } = await sut.create(session, { name: 'ops', scopes: ['admin', 'profiles:read'] });
      await deps.store.accounts.setOperator(account.id, false);
      clock.advance(1);

      expect([...((await sut.authenticate(secret))?.scopes ?? [])]).toEqual(['profiles:read']);
    });

    it('answers null for a malformed or unknown secret', async () => {
      const { sut } = await setUp();
      expect(await sut.authenticate('not a token')).toBeNull();
      expect(await sut.authenticate(`svc_${'a'.repeat(52)}`)).toBeNull();
    });
  });

  describe('revoke', () => {
    it('revokes for good: the secret stops, the list drops it, again is not_found', async () => {
      const { sut, session, account } = await setUp();
      const { token, secret } = await sut.create(session, READ);
      await sut.revoke(account.id, token.id, { ...SOURCE, orgId: account.orgId });

      expect(await sut.authenticate(secret)).toBeNull();
      expect((await sut.list(account.id, 10, undefined)).tokens).toEqual([]);
      expect(await codeOf(sut.revoke(account.id, token.id))).toBe('not_found');
    });

    it("answers not_found for another account's token and leaves it working", async () => {
      const context = await setUp();
      const other = await context.register('other@example.com', OTHER_ORG);
      const { token, secret } = await context.sut.create(await context.signIn('other@example.com'), READ);

      expect(await codeOf(context.sut.revoke(context.account.id, token.id))).toBe('not_found');
      expect((await context.sut.authenticate(secret))?.account.id).toBe(other.id);
      expect((await context.sut.list(context.account.id, 10, undefined)).tokens).toEqual([]);
    });
  });
});
