import type { AuthenticationResponseJson, RegistrationResponseJson } from '@svc/domain';
import { type DataExportScheduler, DataExportSchedulerToken } from '@svc/http-server';
import { describe, expect, it } from 'vitest';
import { failureOf, SCENARIO_PASSWORD as PASSWORD, type SdkScenario } from '../../support/sdk-scenario.js';
import {
  type CreationOptionsSeen,
  type RequestOptionsSeen,
  SoftwareAuthenticator,
} from '../../support/software-authenticator.js';
import { totpCode } from '../../support/totp.js';

const STEP = 30_000;

/** Deployment facts, catalogues, the waitlist, signup to sign-in, and API tokens (spec 4.7–4.9, 4.12). */
export function describeSignIn(scenario: SdkScenario): void {
  describe('deployment facts and catalogues (spec 4.7, 4.12)', () => {
    it('reads meta, capabilities, PoPs, the caller IP, the OpenAPI document and the catalogues', async () => {
      const anonymous = scenario.client();
      expect((await anonymous.meta.get()).api_version).toMatch(/^\d+\.\d+\.\d+$/);
      expect((await anonymous.meta.capabilities()).features).toHaveProperty('list_reports');
      expect((await anonymous.meta.pops()).pops.length).toBeGreaterThan(0);
      expect(await anonymous.meta.ip()).toEqual({ ip: '127.0.0.1', version: 4 });
      expect(await anonymous.meta.openApiYaml()).toContain('openapi: 3.1.0');
      const { lists } = await anonymous.catalogue.lists();
      const first = lists[0];
      if (first === undefined) throw new Error('the blocklist catalogue is empty');
      scenario.keep('listId', first.id);
      expect((await anonymous.catalogue.parentalServices({ limit: 10 }).toArray()).length).toBeGreaterThan(
        10,
      );
      expect((await anonymous.catalogue.parentalCategories()).categories.length).toBeGreaterThan(0);
    });
  });

  describe('signup, waitlist, verification and sign-in (spec 4.8, 5.1)', () => {
    it('joins and confirms the waitlist offered in invite mode', async () => {
      const anonymous = scenario.client();
      expect(await anonymous.auth.signupMode()).toEqual({ mode: 'invite', waitlist: true });
      const waiting = `waiting${Date.now()}@elsewhere.test`;
      expect(await anonymous.waitlist.join(waiting)).toEqual({ status: 'confirmation_sent' });
      const token = await scenario.emailedToken(waiting, /waitlist\/confirm\?token=([^\s"<]+)/);
      expect(await anonymous.waitlist.confirm(token)).toEqual({ status: 'confirmed', email: waiting });
    });

    it('signs up, resends the verification link, verifies with it and signs in', async () => {
      const email = scenario.freshEmail('owner');
      const session = scenario.client();
      expect(await session.auth.status()).toBeNull();
      expect(await session.auth.signup({ email, password: PASSWORD })).toEqual({
        status: 'verification_sent',
      });
      expect(await session.auth.resendVerification(email)).toEqual({ status: 'verification_sent' });
      // The resent link replaces the first one.
      const verified = await session.auth.verify(
        await scenario.emailedToken(email, /verify-email\?token=([^\s"<]+)/, 2),
      );
      expect(verified).toMatchObject({ email, email_verified_at: expect.any(String) });
      const account = await session.auth.login({ email, password: PASSWORD });
      expect(account.id).toBe(verified.id);
      expect(session.sessionCookie()).toMatch(/^\S+$/);
      expect((await session.auth.me()).id).toBe(account.id);
      expect((await session.auth.status())?.id).toBe(account.id);
      scenario.keep('owner', { session, email, id: account.id });
    });
  });

  describe('API tokens (spec 4.9)', () => {
    it('creates, lists and revokes tokens; a token client works as its account', async () => {
      const owner = scenario.get('owner');
      const created = await owner.session.tokens.create({
        name: 'script',
        scopes: ['profiles:read', 'profiles:write', 'account:read', 'logs:read', 'analytics:read'],
      });
      expect(created.secret).toMatch(/^svc_/);
      const scripted = scenario.client({ token: created.secret });
      expect((await scripted.auth.me()).id).toBe(owner.id);
      scenario.keep('scripted', scripted);
      const doomed = await owner.session.tokens.create({ name: 'doomed', scopes: ['account:read'] });
      expect((await owner.session.tokens.list().toArray()).map((token) => token.name).sort()).toEqual([
        'doomed',
        'script',
      ]);
      await owner.session.tokens.revoke(doomed.token.id);
      expect((await failureOf(scenario.client({ token: doomed.secret }).auth.me())).code).toBe(
        'unauthenticated',
      );
    });
  });
}

/** Preferences, audit log, client errors, feedback, sessions, password change and reset (spec 4.8, 4.11). */
export function describeAccountUpkeep(scenario: SdkScenario): void {
  describe('preferences, audit log, client errors and feedback (spec 2.2, 4.8, 4.11, 6.2)', () => {
    it('reads and updates preferences, reads the audit log, reports an error and sends feedback', async () => {
      const { session } = scenario.get('owner');
      const scripted = scenario.get('scripted');
      expect(await session.auth.preferences.get()).toEqual({ alerts: { node_offline: true } });
      expect(await session.auth.preferences.update({ alerts: { node_offline: false } })).toEqual({
        alerts: { node_offline: false },
      });
      const actions = (await scripted.auth.audit.list().toArray()).map((entry) => entry.action);
      expect(actions).toContain('account.preferences_updated');
      expect((await session.clientErrors.report({ message: 'TypeError: boom' })).id).toEqual(
        expect.any(String),
      );
      expect((await scripted.feedback.send({ message: 'Lovely', rating: 5 })).id).toEqual(expect.any(String));
    });
  });

  describe('sessions, password change and reset (spec 4.8, 5.2)', () => {
    it('lists sessions, signs out the others, then one, and signs out', async () => {
      const member = await scenario.signedIn('member');
      scenario.keep('member', member);
      const laptop = scenario.client();
      await laptop.auth.login({ email: member.email, password: PASSWORD });
      expect(await member.session.auth.sessions.list()).toHaveLength(2);
      expect(await member.session.auth.sessions.revokeOthers()).toEqual({ revoked: 1 });
      expect((await failureOf(laptop.auth.me())).code).toBe('unauthenticated');

      const phone = scenario.client();
      await phone.auth.login({ email: member.email, password: PASSWORD });
      const other = (await member.session.auth.sessions.list()).find((session) => !session.current);
      await member.session.auth.sessions.revoke(other?.id ?? '');
      expect((await failureOf(phone.auth.me())).code).toBe('unauthenticated');

      await member.session.auth.logout();
      expect(member.session.sessionCookie()).toBeUndefined();
    });

    it('changes the password, then resets it from the emailed link', async () => {
      const member = scenario.get('member');
      await member.session.auth.login({ email: member.email, password: PASSWORD });
      expect(
        await member.session.auth.changePassword({
          current_password: PASSWORD,
          new_password: 'a brand new passphrase',
        }),
      ).toEqual({ revoked: 0 });
      const anonymous = scenario.client();
      expect(await anonymous.auth.requestPasswordReset(member.email)).toEqual({ status: 'reset_sent' });
      const token = await scenario.emailedToken(member.email, /reset-password\?token=([^\s"<]+)/);
      expect(await anonymous.auth.confirmPasswordReset({ token, new_password: PASSWORD })).toEqual({
        revoked: 1,
      });
      expect((await anonymous.auth.login({ email: member.email, password: PASSWORD })).id).toBe(member.id);
    });
  });
}

/** TOTP, recovery codes, passkeys and account recovery on an account of their own (spec 5.4, 5.5). */
export function describeSecondFactors(scenario: SdkScenario): void {
  describe('second factors and passkeys (spec 5.4, 5.5)', () => {
    it('turns TOTP on, replaces recovery codes, signs in with a passkey, turns TOTP off and recovers', async () => {
      const { api } = scenario;
      const member = await scenario.signedIn('mfa');
      const enrolment = await member.session.auth.totp.start();
      expect(enrolment.otpauth_uri).toContain(`secret=${enrolment.secret}`);
      const enabled = await member.session.auth.totp.confirm(totpCode(enrolment.secret, api.clock.now()));
      expect(enabled).toMatchObject({ enabled: true, recovery_codes: expect.any(Array) });
      expect(await member.session.auth.totp.status()).toEqual({
        enabled: true,
        enabled_at: api.clock.now().toISOString(),
      });
      expect(await member.session.auth.recoveryCodes.remaining()).toBe(10);
      const codes = await member.session.auth.recoveryCodes.replace();
      expect(codes).toHaveLength(10);

      const authenticator = new SoftwareAuthenticator();
      const creation = await member.session.auth.passkeys.registrationOptions();
      const registered = await member.session.auth.passkeys.register(
        authenticator.register(
          creation as unknown as CreationOptionsSeen,
        ) as unknown as RegistrationResponseJson,
        'Laptop',
      );
      expect(registered.passkey.name).toBe('Laptop');
      expect((await member.session.auth.passkeys.rename(registered.passkey.id, 'Work laptop')).name).toBe(
        'Work laptop',
      );
      expect((await member.session.auth.passkeys.list()).map((passkey) => passkey.name)).toEqual([
        'Work laptop',
      ]);

      const elsewhere = scenario.client();
      const request = await elsewhere.auth.passkeys.authenticationOptions();
      const account = await elsewhere.auth.passkeys.authenticate(
        authenticator.authenticate(
          request as unknown as RequestOptionsSeen,
        ) as unknown as AuthenticationResponseJson,
      );
      expect(account.id).toBe(member.id);

      api.clock.advance(STEP);
      expect(await member.session.auth.totp.disable(totpCode(enrolment.secret, api.clock.now()))).toEqual({
        enabled: false,
      });

      const stranger = scenario.client();
      expect(await stranger.auth.recovery.request(member.email)).toEqual({ status: 'recovery_sent' });
      const token = await scenario.emailedToken(member.email, /recovery=(rec_[^\s"<]+)/);
      const recovered = await stranger.auth.recovery.confirm({ token, recovery_code: codes[0] ?? '' });
      expect(recovered.id).toBe(member.id);
      expect(stranger.sessionCookie()).toMatch(/^\S+$/);

      await member.session.auth.passkeys.delete(registered.passkey.id);
      expect(await member.session.auth.passkeys.list()).toEqual([]);
    });
  });
}

/** The owner's data export, then the deletion of the account, last (ROUTES.md, spec 4.8). */
export function describeExportAndDeletion(scenario: SdkScenario): void {
  describe('data exports (ROUTES.md "Sign-in and account")', () => {
    it('starts an export, lists it, reads it once built and downloads the archive', async () => {
      const owner = scenario.get('owner');
      const job = await scenario.api.container.getAsync<DataExportScheduler>(DataExportSchedulerToken);
      // The step builds the export itself, so that "pending" and "ready" come when it says.
      await job.stop();
      const started = await owner.session.auth.exports.create();
      expect(started).toMatchObject({ status: 'pending' });
      expect((await owner.session.auth.exports.list().toArray()).map((each) => each.id)).toEqual([
        started.id,
      ]);
      expect((await job.runOnce()).built).toBe(1);
      const ready = await owner.session.auth.exports.get(started.id);
      expect(ready).toMatchObject({ status: 'ready', download_url: expect.stringContaining(started.id) });
      const archive = await owner.session.auth.exports.download(started.id);
      expect(Buffer.byteLength(archive)).toBe(ready.size_bytes);
      expect(archive).toContain(owner.email);
      // The query logs the edge wrote for the profile come after the account's data.
      expect(archive).toContain('"n0.example"');
    });
  });

  describe('account deletion (spec 4.8), last', () => {
    it('deletes the account with cooling-off, cancels, and deletes it again', async () => {
      const owner = scenario.get('owner');
      // Deletion needs a sign-in within five minutes.
      await owner.session.auth.login({ email: owner.email, password: PASSWORD });
      const deleting = await owner.session.auth.deleteAccount();
      expect(deleting).toMatchObject({ id: owner.id, deletion_due_at: expect.any(String) });
      // The session that asked ended with the deletion (spec 3): the owner signs in again to cancel.
      await owner.session.auth.login({ email: owner.email, password: PASSWORD });
      expect(await owner.session.auth.undelete()).toEqual({ status: 'active' });
      expect((await owner.session.auth.deleteAccount()).deletion_due_at).toEqual(expect.any(String));
    });
  });
}
