import { IdentityLimits, SessionService } from '@svc/domain';
import { describe, expect, it } from 'vitest';
import { AT_HOME, identityWorld, PASSWORD } from '../fixtures/identity-world.js';
import { codeOf, OTHER_ORG } from '../fixtures/memory-world.js';

const EMAIL = 'owner@example.com';

/** A session service on the memory stores, with one verified account. */
async function setUp() {
  const world = await identityWorld();
  const owner = await world.register(EMAIL);
  return { ...world, sut: world.sessions, owner };
}

describe(SessionService.name, () => {
  describe('login (spec 5.2)', () => {
    it('opens a session stored only as a keyed hash, audited as session.created', async () => {
      const { sut, owner, stores } = await setUp();
      const issued = await sut.login({ email: 'Owner@Example.com', password: PASSWORD }, AT_HOME);

      expect(issued.account.email).toBe(EMAIL);
      expect(issued.session).toMatchObject({
        accountId: owner.id,
        method: 'password',
        strong: false,
        ip: AT_HOME.ip,
      });
      expect(issued.session.tokenHash).not.toContain(issued.token);
      expect((await sut.authenticate(issued.token))?.session.id).toBe(issued.session.id);
      const [entry] = await stores.auditLog.recent(owner.orgId, 1);
      expect(entry).toMatchObject({
        action: 'session.created',
        actor: `account:${owner.id}`,
        details: { method: 'password' },
      });
    });

    it('answers invalid_credentials alike for a wrong password and an unknown address', async () => {
      const { sut } = await setUp();
      expect(await codeOf(sut.login({ email: EMAIL, password: 'wrong password' }, AT_HOME))).toBe(
        'invalid_credentials',
      );
      expect(await codeOf(sut.login({ email: 'nobody@example.com', password: PASSWORD }, AT_HOME))).toBe(
        'invalid_credentials',
      );
    });

    it('refuses an attempt that follows failures too soon with rate_limited, even with the right password', async () => {
      const { sut } = await setUp();
      for (let failure = 0; failure < 3; failure += 1) {
        await codeOf(sut.login({ email: EMAIL, password: 'wrong password' }, AT_HOME)).catch(() => undefined);
      }
      expect(await codeOf(sut.login({ email: EMAIL, password: PASSWORD }, AT_HOME))).toBe('rate_limited');
    });

    it('replaces the live session the browser presents: one session per browser', async () => {
      const { sut, owner } = await setUp();
      const first = await sut.login({ email: EMAIL, password: PASSWORD }, AT_HOME);
      const second = await sut.login(
        { email: EMAIL, password: PASSWORD },
        { ...AT_HOME, replacing: first.token },
      );

      expect(await sut.authenticate(first.token)).toBeNull();
      expect((await sut.list(owner.id, second.session.id)).map((session) => session.id)).toEqual([
        second.session.id,
      ]);
    });

    it("leaves another account's session alone when a browser presents it while signing in", async () => {
      const { sut, register } = await setUp();
      await register('other@example.com', OTHER_ORG);
      const theirs = await sut.login({ email: 'other@example.com', password: PASSWORD }, AT_HOME);
      await sut.login({ email: EMAIL, password: PASSWORD }, { ...AT_HOME, replacing: theirs.token });

      expect((await sut.authenticate(theirs.token))?.session.id).toBe(theirs.session.id);
    });
  });

  describe('lifetime (spec 5.2.2)', () => {
    it('renews the token on the first request after 24 h; the previous one works for its short grace', async () => {
      const { sut, clock } = await setUp();
      const issued = await sut.login({ email: EMAIL, password: PASSWORD }, AT_HOME);
      clock.advance(IdentityLimits.sessionRenewAfterMs + 1);

      const renewing = await sut.authenticate(issued.token);
      const renewed = renewing?.renewed;
      if (renewed == null) throw new Error('the token was not renewed');
      expect(renewed.token).not.toBe(issued.token);
      expect((await sut.authenticate(issued.token))?.renewed).toBeNull();
      clock.advance(IdentityLimits.sessionPreviousTokenGraceMs + 1);
      expect(await sut.authenticate(issued.token)).toBeNull();
      expect((await sut.authenticate(renewed.token))?.session.id).toBe(issued.session.id);
    });

    it('ends a session after 7 days unused', async () => {
      const { sut, clock } = await setUp();
      const issued = await sut.login({ email: EMAIL, password: PASSWORD }, AT_HOME);
      clock.advance(IdentityLimits.sessionIdleMs);
      expect(await sut.authenticate(issued.token)).toBeNull();
    });

    it('ends a session 30 days after sign-in however often it is used', async () => {
      const { sut, clock } = await setUp();
      const issued = await sut.login({ email: EMAIL, password: PASSWORD }, AT_HOME);
      let token = issued.token;
      for (let day = 1; day < 30; day += 1) {
        clock.advance(24 * 3_600_000 + 1);
        const current = await sut.authenticate(token);
        if (current === null) throw new Error(`the session ended on day ${day}`);
        token = current.renewed?.token ?? token;
      }
      clock.advance(IdentityLimits.sessionLifetimeMs - 29 * (24 * 3_600_000 + 1));
      expect(await sut.authenticate(token)).toBeNull();
    });

    it('asks for a sign-in within five minutes for credential changes (reauth_required)', async () => {
      const { sut, clock } = await setUp();
      const { session } = await sut.login({ email: EMAIL, password: PASSWORD }, AT_HOME);
      clock.advance(IdentityLimits.stepUpWindowMs);
      expect(() => sut.assertStepUp(session)).not.toThrow();
      clock.advance(1);
      expect(() => sut.assertStepUp(session)).toThrow(expect.objectContaining({ code: 'reauth_required' }));
    });
  });

  describe('sign-out', () => {
    it('lists live sessions with the current one marked, signs out the others, then one by id', async () => {
      const { sut, owner } = await setUp();
      const here = await sut.login({ email: EMAIL, password: PASSWORD }, AT_HOME);
      const phone = await sut.login({ email: EMAIL, password: PASSWORD }, { ...AT_HOME, userAgent: 'Phone' });
      const laptop = await sut.login(
        { email: EMAIL, password: PASSWORD },
        { ...AT_HOME, userAgent: 'Laptop' },
      );

      const listed = await sut.list(owner.id, here.session.id);
      expect(listed.filter((session) => session.current).map((session) => session.id)).toEqual([
        here.session.id,
      ]);
      expect(listed).toHaveLength(3);

      await sut.revokeOne(owner.id, phone.session.id);
      expect(await sut.authenticate(phone.token)).toBeNull();
      expect(await codeOf(sut.revokeOne(owner.id, phone.session.id))).toBe('not_found');
      expect(await sut.revokeOthers(owner.id, here.session.id)).toBe(1);
      expect(await sut.authenticate(laptop.token)).toBeNull();
      expect((await sut.list(owner.id, here.session.id)).map((session) => session.id)).toEqual([
        here.session.id,
      ]);
    });

    it("answers not_found for another account's session and leaves it live", async () => {
      const { sut, owner, register } = await setUp();
      const other = await register('other@example.com', OTHER_ORG);
      const theirs = await sut.login({ email: 'other@example.com', password: PASSWORD }, AT_HOME);

      expect(await codeOf(sut.revokeOne(owner.id, theirs.session.id))).toBe('not_found');
      await sut.logout(owner.id, theirs.session.id);
      expect((await sut.authenticate(theirs.token))?.account.id).toBe(other.id);
    });

    it('ends the session at logout', async () => {
      const { sut, owner } = await setUp();
      const issued = await sut.login({ email: EMAIL, password: PASSWORD }, AT_HOME);
      await sut.logout(owner.id, issued.session.id);
      expect(await sut.authenticate(issued.token)).toBeNull();
    });
  });
});
