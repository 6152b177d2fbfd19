import { IdentityLimits, SecondFactorService } from '@svc/domain';
import { totpCode } from '@svc/testing/totp';
import { describe, expect, it } from 'vitest';
import { AT_HOME, identityWorld, PASSWORD } from '../fixtures/identity-world.js';
import { codeOf } from '../fixtures/memory-world.js';

const EMAIL = 'owner@example.com';
const SOURCE = { actor: 'account:owner' };
const STEP_MS = 30_000;
/** Longer than the delay the sign-in ladder puts after one failure. */
const AFTER_A_FAILURE_MS = 1_000;

/** A second-factor service on the memory stores, with a verified account signed in a moment ago. */
async function setUp() {
  const world = await identityWorld();
  const account = await world.register(EMAIL);
  const owner = { email: account.email, orgId: account.orgId, emailVerifiedAt: account.emailVerifiedAt };
  const signIn = (totp_code?: string) =>
    world.sessions.login(
      { email: EMAIL, password: PASSWORD, ...(totp_code === undefined ? {} : { totp_code }) },
      AT_HOME,
    );
  const { session } = await signIn();
  /** Subjects of the mails queued for the owner so far. */
  const mails = () => world.stores.mailQueue.pending().filter((mail) => mail.to === EMAIL);
  return { ...world, sut: world.secondFactors, account, owner, session, signIn, mails };
}

/** TOTP turned on for the signed-in account: its secret and recovery codes. */
async function withTotp(context: Awaited<ReturnType<typeof setUp>>) {
  const { secret } = await context.sut.startTotp(context.session, context.owner);
  const confirmed = await context.sut.confirmTotp(
    context.session,
    context.owner,
    totpCode(secret, context.clock.now()),
    SOURCE,
  );
  return { secret, recoveryCodes: confirmed.recovery_codes ?? [] };
}

/** The `rec_` token of the newest recovery mail. */
function recoveryTokenOf(mails: readonly { subject: string; text: string }[]): string {
  const link = mails
    .map((mail) => /recovery=([^\s&]+)/.exec(mail.text)?.[1])
    .findLast((found) => found !== undefined);
  if (link === undefined) throw new Error('no recovery mail');
  return decodeURIComponent(link);
}

describe(SecondFactorService.name, () => {
  describe('TOTP (spec 5.5)', () => {
    it('turns TOTP on with a first valid code: ten recovery codes, a notice mailed, the change audited', async () => {
      const context = await setUp();
      const { secret, recoveryCodes } = await withTotp(context);

      expect(secret).toMatch(/^[A-Z2-7]+$/);
      expect(recoveryCodes).toHaveLength(10);
      expect(await context.sut.totpStatus(context.account.id)).toMatchObject({ enabled: true });
      expect(await context.sut.remainingRecoveryCodes(context.account.id)).toBe(10);
      expect((await context.deps.store.accounts.findById(context.account.id))?.mfa).toBe(true);
      expect(context.mails()).toHaveLength(1);
      const [entry] = await context.stores.auditLog.recent(context.account.orgId, 1);
      expect(entry).toMatchObject({
        action: 'account.second_factor_changed',
        details: { factor: 'totp', change: 'enabled', recovery_codes_issued: true },
      });
    });

    it('keeps TOTP off after a wrong first code (invalid_second_factor), and refuses a confirm never started', async () => {
      const context = await setUp();
      expect(await codeOf(context.sut.confirmTotp(context.session, context.owner, '000000', SOURCE))).toBe(
        'totp_not_enabled',
      );
      const { secret } = await context.sut.startTotp(context.session, context.owner);
      const wrong = totpCode(secret, new Date(context.clock.now().getTime() + 10 * STEP_MS));

      expect(await codeOf(context.sut.confirmTotp(context.session, context.owner, wrong, SOURCE))).toBe(
        'invalid_second_factor',
      );
      expect(await context.sut.totpStatus(context.account.id)).toEqual({ enabled: false, enabled_at: null });
    });

    it('refuses to start again while TOTP is on (totp_already_enabled)', async () => {
      const context = await setUp();
      await withTotp(context);
      expect(await codeOf(context.sut.startTotp(context.session, context.owner))).toBe(
        'totp_already_enabled',
      );
    });

    it('needs a verified address (email_unverified) and a sign-in within five minutes (reauth_required)', async () => {
      const context = await setUp();
      expect(
        await codeOf(context.sut.startTotp(context.session, { ...context.owner, emailVerifiedAt: null })),
      ).toBe('email_unverified');
      context.clock.advance(IdentityLimits.stepUpWindowMs + 1);
      expect(await codeOf(context.sut.startTotp(context.session, context.owner))).toBe('reauth_required');
    });

    it('asks for the code at sign-in, takes it once, and refuses a replay of it', async () => {
      const context = await setUp();
      const { secret } = await withTotp(context);
      context.clock.advance(STEP_MS);
      const code = totpCode(secret, context.clock.now());

      expect(await codeOf(context.signIn())).toBe('second_factor_required');
      expect((await context.signIn(code)).session.strong).toBe(true);
      expect(await codeOf(context.signIn(code))).toBe('invalid_second_factor');
    });

    it('turns TOTP off with a current code only; a wrong one changes nothing', async () => {
      const context = await setUp();
      const { secret } = await withTotp(context);
      context.clock.advance(STEP_MS);
      const wrong = totpCode(secret, new Date(context.clock.now().getTime() + 10 * STEP_MS));

      expect(await codeOf(context.sut.disableTotp(context.session, context.owner, wrong, SOURCE))).toBe(
        'invalid_second_factor',
      );
      expect((await context.sut.totpStatus(context.account.id)).enabled).toBe(true);
      context.clock.advance(AFTER_A_FAILURE_MS);
      const right = totpCode(secret, context.clock.now());
      expect(await context.sut.disableTotp(context.session, context.owner, right, SOURCE)).toEqual({
        enabled: false,
      });
      expect((await context.deps.store.accounts.findById(context.account.id))?.mfa).toBe(false);
      expect((await context.signIn()).session.strong).toBe(false);
    });
  });

  describe('recovery codes', () => {
    it('refuses new codes without a second factor (no_second_factor)', async () => {
      const context = await setUp();
      expect(await codeOf(context.sut.replaceRecoveryCodes(context.session, context.owner, SOURCE))).toBe(
        'no_second_factor',
      );
    });

    it('replaces the codes: the old ones stop working', async () => {
      const context = await setUp();
      const { recoveryCodes } = await withTotp(context);
      const replaced = await context.sut.replaceRecoveryCodes(context.session, context.owner, SOURCE);
      expect(replaced).toHaveLength(10);
      expect(replaced).not.toContain(recoveryCodes[0]);

      await context.sut.requestRecovery(EMAIL, AT_HOME.ip);
      const token = recoveryTokenOf(context.mails());
      expect(await codeOf(context.sut.confirmRecovery(token, recoveryCodes[0] ?? '', AT_HOME))).toBe(
        'invalid_recovery_code',
      );
      context.clock.advance(AFTER_A_FAILURE_MS);
      expect((await context.sut.confirmRecovery(token, replaced[0] ?? '', AT_HOME)).session.restricted).toBe(
        true,
      );
    });
  });

  describe('account recovery (spec 5.5)', () => {
    it('signs in to a restricted session with the emailed link and one code, and turns TOTP off', async () => {
      const context = await setUp();
      const { recoveryCodes } = await withTotp(context);
      await context.sut.requestRecovery('Owner@Example.com', AT_HOME.ip);
      const token = recoveryTokenOf(context.mails());
      expect(token).toMatch(/^rec_/);

      const recovered = await context.sut.confirmRecovery(token, recoveryCodes[0] ?? '', AT_HOME);
      expect(recovered.session).toMatchObject({ method: 'recovery', restricted: true, strong: false });
      expect((await context.sut.totpStatus(context.account.id)).enabled).toBe(false);
      expect(await context.sut.remainingRecoveryCodes(context.account.id)).toBe(9);
      expect(await codeOf(context.sut.confirmRecovery(token, recoveryCodes[1] ?? '', AT_HOME))).toBe(
        'token_used',
      );
    });

    it('keeps the link usable after a wrong code (invalid_recovery_code), and refuses a used code', async () => {
      const context = await setUp();
      const { recoveryCodes } = await withTotp(context);
      await context.sut.requestRecovery(EMAIL, AT_HOME.ip);
      const first = recoveryTokenOf(context.mails());
      await context.sut.confirmRecovery(first, recoveryCodes[0] ?? '', AT_HOME);

      await context.sut.requestRecovery(EMAIL, AT_HOME.ip);
      const second = recoveryTokenOf(context.mails());
      expect(await codeOf(context.sut.confirmRecovery(second, recoveryCodes[0] ?? '', AT_HOME))).toBe(
        'invalid_recovery_code',
      );
      context.clock.advance(AFTER_A_FAILURE_MS);
      expect(
        (await context.sut.confirmRecovery(second, recoveryCodes[1] ?? '', AT_HOME)).session.restricted,
      ).toBe(true);
    });

    it('refuses a link past its hour (token_expired) and an unknown one (invalid_token)', async () => {
      const context = await setUp();
      const { recoveryCodes } = await withTotp(context);
      await context.sut.requestRecovery(EMAIL, AT_HOME.ip);
      const token = recoveryTokenOf(context.mails());
      context.clock.advance(IdentityLimits.recoveryTtlMs);

      expect(await codeOf(context.sut.confirmRecovery(token, recoveryCodes[0] ?? '', AT_HOME))).toBe(
        'token_expired',
      );
      expect(await codeOf(context.sut.confirmRecovery('rec_unknown', recoveryCodes[0] ?? '', AT_HOME))).toBe(
        'invalid_token',
      );
      expect(await context.sut.remainingRecoveryCodes(context.account.id)).toBe(10);
    });

    it('mails nothing for an unknown address, with the same answer', async () => {
      const context = await setUp();
      await context.sut.requestRecovery('nobody@example.com', AT_HOME.ip);
      expect(context.stores.mailQueue.pending()).toEqual([]);
    });

    it('over the address limit, mails no new link while one still works, and one again once none does', async () => {
      const context = await setUp();
      for (let request = 0; request < 5; request += 1) await context.sut.requestRecovery(EMAIL, AT_HOME.ip);
      expect(context.mails()).toHaveLength(3);

      context.clock.advance(IdentityLimits.recoveryTtlMs);
      await context.sut.requestRecovery(EMAIL, AT_HOME.ip);
      expect(context.mails()).toHaveLength(4);
    });

    it('limits one client network whatever the address (rate_limited)', async () => {
      const context = await setUp();
      let refused: string | undefined;
      for (let request = 0; request < 25 && refused === undefined; request += 1) {
        refused = await context.sut.requestRecovery(`someone${request}@example.com`, '203.0.113.50').then(
          () => undefined,
          (error: unknown) => (error as { code?: string }).code,
        );
      }
      expect(refused).toBe('rate_limited');
    });
  });
});
