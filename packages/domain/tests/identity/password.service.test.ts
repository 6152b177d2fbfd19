import { IdentityLimits, PasswordService } from '@svc/domain';
import { describe, expect, it } from 'vitest';
import { AT_HOME, identityWorld, PASSWORD } from '../fixtures/identity-world.js';
import { codeOf } from '../fixtures/memory-world.js';

const EMAIL = 'owner@example.com';
const NEW_PASSWORD = 'a new and longer passphrase';

/** A password service on the memory stores, with a verified account signed in twice. */
async function setUp() {
  const world = await identityWorld();
  const account = await world.register(EMAIL);
  const sut = new PasswordService(world.deps);
  const signIn = (password = PASSWORD) => world.sessions.login({ email: EMAIL, password }, AT_HOME);
  const signedIn = [await signIn(), await signIn()];
  const mails = () => world.stores.mailQueue.pending().filter((mail) => mail.to === EMAIL);
  return { ...world, sut, account, signIn, signedIn, mails };
}

/** The `rst_` token of the newest reset mail. */
function resetTokenOf(mails: readonly { text: string }[]): string {
  const link = mails
    .map((mail) => /reset-password\?token=([^\s&]+)/.exec(mail.text)?.[1])
    .findLast((found) => found !== undefined);
  if (link === undefined) throw new Error('no reset mail');
  return decodeURIComponent(link);
}

describe(PasswordService.name, () => {
  describe('reset (spec 4.8)', () => {
    it('mails an rst_ link that sets the new password once and signs out every session', async () => {
      const context = await setUp();
      await context.sut.requestReset('Owner@Example.com', AT_HOME.ip);
      const token = resetTokenOf(context.mails());
      expect(token).toMatch(/^rst_/);

      expect((await context.sut.confirmReset(token, NEW_PASSWORD)).revoked).toBe(2);
      for (const issued of context.signedIn)
        expect(await context.sessions.authenticate(issued.token)).toBeNull();
      context.clock.advance(1_000);
      expect(await codeOf(context.signIn())).toBe('invalid_credentials');
      context.clock.advance(1_000);
      expect((await context.signIn(NEW_PASSWORD)).account.email).toBe(EMAIL);
      expect(await codeOf(context.sut.confirmReset(token, 'yet another passphrase'))).toBe('token_used');
    });

    it('refuses a link past its hour with token_expired, keeping the old password', async () => {
      const context = await setUp();
      await context.sut.requestReset(EMAIL, AT_HOME.ip);
      context.clock.advance(IdentityLimits.resetTtlMs);

      expect(await codeOf(context.sut.confirmReset(resetTokenOf(context.mails()), NEW_PASSWORD))).toBe(
        'token_expired',
      );
      expect((await context.signIn()).account.email).toBe(EMAIL);
    });

    it('mails nothing for an unknown address, with the same answer', async () => {
      const context = await setUp();
      await context.sut.requestReset('nobody@example.com', AT_HOME.ip);
      expect(context.stores.mailQueue.pending()).toEqual([]);
    });

    it('over the address limit, mails no new link while one works, and one again once none does', async () => {
      const context = await setUp();
      for (let request = 0; request < 5; request += 1) await context.sut.requestReset(EMAIL, AT_HOME.ip);
      expect(context.mails()).toHaveLength(3);

      await context.sut.confirmReset(resetTokenOf(context.mails()), NEW_PASSWORD);
      await context.sut.requestReset(EMAIL, AT_HOME.ip);
      // The notice of the reset, then a new link: the used link ended the others.
      expect(context.mails()).toHaveLength(5);
    });
  });
});
