import { IdentityStore, setOperatorFlag } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, eventually, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { problemOf, type RawAnswer, send } from '../../support/http.js';
import { totpCode } from '../../support/totp.js';

const PASSWORD = 'correct horse battery';
const cookieOf = (answer: RawAnswer) =>
  /svc_session=([^;]*)/.exec(answer.headers['set-cookie'] ?? '')?.[1] ?? '';
const withCookie = (cookie: string) => ({ cookie: `svc_session=${cookie}` });
/** A code that is certainly not `code`. */
const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** TOTP, recovery codes, step-up, recovery sessions and operator sign-in strength (spec 5.4, 5.5, 7). */
export function runSecondFactorSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`second factors through HTTP on ${storage} (spec 5.4, 5.5)`, () => {
    let api: ApiHarness;
    beforeAll(async () => {
      api = await startApi(storage);
    }, 60_000);
    afterAll(async () => {
      await api?.close();
    });

    const post = (path: string, body: object | undefined, headers: Record<string, string> = {}) =>
      send(`${api.url}${path}`, { method: 'POST', headers, ...(body === undefined ? {} : { body }) });
    const login = (email: string, extra: object = {}) =>
      post('/v1/auth/login', { email, password: PASSWORD, ...extra });

    /** Turns TOTP on for a fresh account; returns the secret, recovery codes and a session. */
    async function withTotp(): Promise<{
      account: TestAccount;
      secret: string;
      codes: string[];
      cookie: string;
    }> {
      const account = await createAccount(api);
      const cookie = cookieOf(await login(account.email));
      const status = () => send(`${api.url}/v1/auth/totp`, { headers: withCookie(cookie) });
      expect((await status()).json).toEqual({ enabled: false, enabled_at: null });
      const started = await post('/v1/auth/totp', undefined, withCookie(cookie));
      expect(started.status).toBe(200);
      // A started enrolment is not on until a code confirms it.
      expect((await status()).json).toEqual({ enabled: false, enabled_at: null });
      const { secret, otpauth_uri } = started.json as { secret: string; otpauth_uri: string };
      expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\//);
      expect(otpauth_uri).toContain(`secret=${secret}`);
      expect(otpauth_uri).toContain('issuer=svc');
      const confirmed = await post(
        '/v1/auth/totp/confirm',
        { code: totpCode(secret, api.clock.now()) },
        withCookie(cookie),
      );
      expect(confirmed.status).toBe(200);
      const body = confirmed.json as { enabled: boolean; recovery_codes: string[] };
      expect(body.enabled).toBe(true);
      expect(body.recovery_codes).toHaveLength(10);
      expect(new Set(body.recovery_codes).size).toBe(10);
      expect((await status()).json).toEqual({ enabled: true, enabled_at: api.clock.now().toISOString() });
      api.clock.advance(30_000);
      return { account, secret, codes: body.recovery_codes, cookie };
    }

    it('turns TOTP on with a first valid code, issuing ten recovery codes, and emails a notice', async () => {
      const account = await createAccount(api);
      const cookie = cookieOf(await login(account.email));
      const { secret } = (await post('/v1/auth/totp', undefined, withCookie(cookie))).json as {
        secret: string;
      };
      const wrong = await post(
        '/v1/auth/totp/confirm',
        { code: otherThan(totpCode(secret, api.clock.now())) },
        withCookie(cookie),
      );
      expect(wrong.status).toBe(401);
      expect(problemOf(wrong).code).toBe('invalid_second_factor');
      const malformed = await post('/v1/auth/totp/confirm', { code: '12ab56' }, withCookie(cookie));
      expect(malformed.status).toBe(422);
      const ok = await post(
        '/v1/auth/totp/confirm',
        { code: totpCode(secret, api.clock.now()) },
        withCookie(cookie),
      );
      expect((ok.json as { recovery_codes: string[] }).recovery_codes).toHaveLength(10);
      const me = await send(`${api.url}/v1/auth/me`, { headers: withCookie(cookie) });
      expect((me.json as { account: { mfa: boolean } }).account.mfa).toBe(true);
      const again = await post('/v1/auth/totp', undefined, withCookie(cookie));
      expect(problemOf(again).code).toBe('totp_already_enabled');
      const mails = await eventually(
        () => api.mailTo(account.email),
        (found) => found.length >= 2,
      );
      expect(mails.at(-1)).toMatch(/authenticator app \(TOTP\) was turned on/);
    });

    it('asks for the code at sign-in: 401 second_factor_required, invalid_second_factor, no replay', async () => {
      const { account, secret } = await withTotp();
      const without = await login(account.email);
      expect(without.status).toBe(401);
      expect(problemOf(without).code).toBe('second_factor_required');
      const wrongPassword = await post('/v1/auth/login', {
        email: account.email,
        password: 'not the password',
      });
      expect(problemOf(wrongPassword).code).toBe('invalid_credentials');
      // Each failure spaces the next attempt: 100 ms, then 200 ms (spec 5.2.3).
      api.clock.advance(100);
      const code = totpCode(secret, api.clock.now());
      const wrong = await login(account.email, { totp_code: otherThan(code) });
      expect(problemOf(wrong).code).toBe('invalid_second_factor');
      api.clock.advance(200);
      const ok = await login(account.email, { totp_code: code });
      expect(ok.status).toBe(200);
      const replay = await login(account.email, { totp_code: code });
      expect(problemOf(replay).code).toBe('invalid_second_factor');
      api.clock.advance(30_000);
      expect((await login(account.email, { totp_code: totpCode(secret, api.clock.now()) })).status).toBe(200);
    });

    it('needs a sign-in within five minutes for credential changes (403 reauth_required)', async () => {
      const { account, secret, cookie } = await withTotp();
      api.clock.advance(6 * 60_000);
      const stale = await post('/v1/auth/recovery-codes', undefined, withCookie(cookie));
      expect(stale.status).toBe(403);
      expect(problemOf(stale).code).toBe('reauth_required');
      const disable = await post(
        '/v1/auth/totp/disable',
        { code: totpCode(secret, api.clock.now()) },
        withCookie(cookie),
      );
      expect(problemOf(disable).code).toBe('reauth_required');
      const fresh = cookieOf(await login(account.email, { totp_code: totpCode(secret, api.clock.now()) }));
      const replaced = await post('/v1/auth/recovery-codes', undefined, withCookie(fresh));
      expect(replaced.status).toBe(200);
      expect((replaced.json as { recovery_codes: string[] }).recovery_codes).toHaveLength(10);
      const remaining = await send(`${api.url}/v1/auth/recovery-codes`, { headers: withCookie(fresh) });
      expect(remaining.json).toEqual({ remaining: 10 });
    });

    it('turns TOTP off with a code (step-up); sign-in then needs the password only', async () => {
      const { account, secret } = await withTotp();
      const cookie = cookieOf(await login(account.email, { totp_code: totpCode(secret, api.clock.now()) }));
      api.clock.advance(30_000);
      const off = await post(
        '/v1/auth/totp/disable',
        { code: totpCode(secret, api.clock.now()) },
        withCookie(cookie),
      );
      expect(off.status).toBe(200);
      expect(off.json).toEqual({ enabled: false });
      const status = await send(`${api.url}/v1/auth/totp`, { headers: withCookie(cookie) });
      expect(status.json).toEqual({ enabled: false, enabled_at: null });
      expect((await login(account.email)).status).toBe(200);
      const again = await post('/v1/auth/totp/disable', { code: '123456' }, withCookie(cookie));
      expect(problemOf(again).code).toBe('totp_not_enabled');
      const noFactor = await post('/v1/auth/recovery-codes', undefined, withCookie(cookie));
      expect(problemOf(noFactor).code).toBe('no_second_factor');
    });

    it('recovers with the emailed rec_ link and a recovery code into a restricted session', async () => {
      const { account, codes } = await withTotp();
      const unknown = await post('/v1/auth/recovery', { email: 'nobody@example.test' });
      expect(unknown.status).toBe(202);
      expect(unknown.json).toEqual({ status: 'recovery_sent' });
      expect((await post('/v1/auth/recovery', { email: account.email })).text).toBe(unknown.text);
      const mails = await eventually(
        () => api.mailTo(account.email),
        (found) => found.some((mail) => /recovery=rec_/.test(mail)),
      );
      const token = decodeURIComponent(
        /recovery=(rec_[^\s"<]+)/.exec(mails.find((mail) => /recovery=rec_/.test(mail)) ?? '')?.[1] ?? '',
      );
      const wrong = await post('/v1/auth/recovery/confirm', { token, recovery_code: 'aaaaa-bbbbb' });
      expect(wrong.status).toBe(401);
      expect(problemOf(wrong).code).toBe('invalid_recovery_code');
      // A wrong code is a failure on the account's sign-in ladder: the next try comes 100 ms later.
      api.clock.advance(100);
      const recovered = await post('/v1/auth/recovery/confirm', {
        token,
        recovery_code: (codes[0] ?? '').toUpperCase(),
      });
      expect(recovered.status).toBe(200);
      const restricted = cookieOf(recovered);
      const blocked = await send(`${api.url}/v1/profiles`, { headers: withCookie(restricted) });
      expect(blocked.status).toBe(403);
      expect(problemOf(blocked).code).toBe('mfa_enrolment_required');
      expect((await send(`${api.url}/v1/auth/me`, { headers: withCookie(restricted) })).status).toBe(200);
      const reused = await post('/v1/auth/recovery/confirm', { token, recovery_code: codes[1] ?? '' });
      expect(problemOf(reused).code).toBe('token_used');
      // The old authenticator was turned off by the recovery: the password alone signs in until a new one.
      expect((await login(account.email)).status).toBe(200);
    });

    it('lifts the restriction once a second factor is set up again', async () => {
      const { account, codes } = await withTotp();
      await post('/v1/auth/recovery', { email: account.email });
      const mails = await eventually(
        () => api.mailTo(account.email),
        (found) => found.some((mail) => /recovery=rec_/.test(mail)),
      );
      const token = decodeURIComponent(
        /recovery=(rec_[^\s"<]+)/.exec(mails.find((mail) => /recovery=rec_/.test(mail)) ?? '')?.[1] ?? '',
      );
      const restricted = cookieOf(
        await post('/v1/auth/recovery/confirm', { token, recovery_code: codes[2] ?? '' }),
      );
      const started = await post('/v1/auth/totp', undefined, withCookie(restricted));
      expect(started.status).toBe(200);
      const { secret } = started.json as { secret: string };
      const confirmed = await post(
        '/v1/auth/totp/confirm',
        { code: totpCode(secret, api.clock.now()) },
        withCookie(restricted),
      );
      expect(confirmed.json).toEqual({ enabled: true });
      expect((await send(`${api.url}/v1/profiles`, { headers: withCookie(restricted) })).status).toBe(200);
      const remaining = await send(`${api.url}/v1/auth/recovery-codes`, { headers: withCookie(restricted) });
      expect(remaining.json).toEqual({ remaining: 9 });
    });
  });

  describe.skipIf(options.skip === true)(
    `operator sign-in strength outside development on ${storage} (spec 5.4)`,
    () => {
      let api: ApiHarness;
      beforeAll(async () => {
        api = await startApi(storage, { SVC_ENV: 'production', SVC_SIGNUP_MODE: 'open' });
      }, 60_000);
      afterAll(async () => {
        await api?.close();
      });

      it('refuses an admin token from a password-only session (403 mfa_required) and allows it after TOTP', async () => {
        const account = await createAccount(api);
        const store = await api.container.getAsync<IdentityStore>(IdentityStore);
        await setOperatorFlag(store, account.email, true);
        const post = (path: string, body: object | undefined, headers: Record<string, string> = {}) =>
          send(`${api.url}${path}`, { method: 'POST', headers, ...(body === undefined ? {} : { body }) });
        const passwordOnly = cookieOf(
          await post('/v1/auth/login', { email: account.email, password: PASSWORD }),
        );
        const refused = await post(
          '/v1/tokens',
          { name: 'ops', scopes: ['admin'] },
          withCookie(passwordOnly),
        );
        expect(refused.status).toBe(403);
        expect(problemOf(refused).code).toBe('mfa_required');
        const { secret } = (await post('/v1/auth/totp', undefined, withCookie(passwordOnly))).json as {
          secret: string;
        };
        await post(
          '/v1/auth/totp/confirm',
          { code: totpCode(secret, api.clock.now()) },
          withCookie(passwordOnly),
        );
        api.clock.advance(30_000);
        const strong = cookieOf(
          await post('/v1/auth/login', {
            email: account.email,
            password: PASSWORD,
            totp_code: totpCode(secret, api.clock.now()),
          }),
        );
        const allowed = await post('/v1/tokens', { name: 'ops', scopes: ['admin'] }, withCookie(strong));
        expect(allowed.status).toBe(201);
      });
    },
  );
}
