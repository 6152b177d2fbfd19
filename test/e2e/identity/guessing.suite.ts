import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { type ApiHarness, eventually, type HarnessStorage, startApi } from '../../support/api-harness.js';
import type { RawAnswer } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import { totpCode } from '../../support/totp.js';
import { identityClient, PASSWORD, withCookie } from './identity-client.js';

/** A code that is certainly not `code`. */
const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** How many answers of each status came back. */
function tally(answers: RawAnswer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
}

/**
 * Guessing at sign-in and on the mailed-link routes (issue 27, findings 3 and 6; spec 5.2.3, 8): attempts of
 * one address or account run one at a time and are spaced by the delays their failures earned, whatever the
 * concurrency; wrong second factors count alike and lock the step; per-client limits count an IPv6 client by
 * its /64; and asking for someone's reset links cannot keep them from a working one. The clock is the
 * harness's: time moves only when a test moves it, so the throttle's answers are exact.
 */
export function runGuessingSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`guessing through HTTP on ${storage} (issue 27)`, () => {
    let api: ApiHarness;
    let client: ReturnType<typeof identityClient>;
    beforeAll(async () => {
      api = await startApi(storage, { SVC_TRUST_PROXY: 'loopback' });
      client = identityClient(api);
    }, 60_000);
    afterAll(async () => {
      await api?.close();
    });

    const login = (email: string, password: string, extra: object = {}) =>
      client.post('/v1/auth/login', { email, password, ...extra });

    /** An account with TOTP on, its secret and recovery codes. */
    async function withTotp(): Promise<{ email: string; secret: string; codes: string[] }> {
      const { email } = await createAccount(api);
      const cookie = await client.signIn(email);
      const { secret } = (await client.post('/v1/auth/totp', undefined, withCookie(cookie))).json as {
        secret: string;
      };
      const confirmed = await client.post(
        '/v1/auth/totp/confirm',
        { code: totpCode(secret, api.clock.now()) },
        withCookie(cookie),
      );
      api.clock.advance(30_000);
      return { email, secret, codes: (confirmed.json as { recovery_codes: string[] }).recovery_codes };
    }

    it('tries one of 20 parallel wrong passwords for an address and refuses the rest with 429 and Retry-After', async () => {
      const { email } = await createAccount(api);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, index) => login(email, `wrong password ${index}`)),
      );
      expect(tally(answers)).toEqual({ 401: 1, 429: 19 });
      for (const refused of answers.filter((answer) => answer.status === 429)) {
        expectProblem(refused, 429, 'rate_limited');
        expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
      // Even the right password waits its turn: 100 ms after the one failure.
      expectProblem(await login(email, PASSWORD), 429, 'rate_limited');
      api.clock.advance(100);
      expect((await login(email, PASSWORD)).status).toBe(200);
    });

    it('spaces guesses by the delay each failure earned, 100 ms doubling to 5 s, so N guesses take their sum', async () => {
      const { email } = await createAccount(api);
      const delays = [100, 200, 400, 800, 1_600, 3_200, 5_000, 5_000];
      expect((await login(email, 'wrong password')).status).toBe(401);
      for (const delay of delays) {
        const parallel = await Promise.all([1, 2, 3].map(() => login(email, 'wrong password')));
        expect(tally(parallel)).toEqual({ 429: 3 });
        expect(Number(parallel[0]?.headers['retry-after'])).toBe(Math.ceil(delay / 1000));
        api.clock.advance(delay - 1);
        expectProblem(await login(email, 'wrong password'), 429, 'rate_limited');
        api.clock.advance(1);
        expect((await login(email, 'wrong password')).status).toBe(401);
      }
      api.clock.advance(5_000);
      expect((await login(email, PASSWORD)).status).toBe(200);
      // A sign-in forgets the failures: the next mistake costs 100 ms again.
      expect((await login(email, 'wrong password')).status).toBe(401);
      api.clock.advance(100);
      expect((await login(email, PASSWORD)).status).toBe(200);
    });

    it('counts wrong TOTP codes on the same ladder and locks the second-factor step after ten, for a while', async () => {
      const { email, secret } = await withTotp();
      for (let failure = 0; failure < 10; failure += 1) {
        const wrong = await login(email, PASSWORD, {
          totp_code: otherThan(totpCode(secret, api.clock.now())),
        });
        expectProblem(wrong, 401, 'invalid_second_factor');
        // The next attempt, even with the right code, must wait the delay the wrong one earned.
        expectProblem(
          await login(email, PASSWORD, { totp_code: totpCode(secret, api.clock.now()) }),
          429,
          'rate_limited',
        );
        api.clock.advance(5_000);
      }
      const locked = await login(email, PASSWORD, { totp_code: totpCode(secret, api.clock.now()) });
      expectProblem(locked, 429, 'rate_limited');
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(600);
      // A wrong password is still just a wrong password: the lock tells nothing before the password is right.
      expectProblem(await login(email, 'not the password'), 401, 'invalid_credentials');
      api.clock.advance(15 * 60_000);
      expect((await login(email, PASSWORD, { totp_code: totpCode(secret, api.clock.now()) })).status).toBe(
        200,
      );
    });

    it('counts wrong recovery codes on the account’s ladder too', async () => {
      const { email, secret, codes } = await withTotp();
      expect((await client.post('/v1/auth/recovery', { email })).status).toBe(202);
      // A mail queue delivers the recovery mail after the 202, and not always after the earlier notices.
      const link = /login\?recovery=(rec_[^\s"<]+)/;
      const mails = await eventually(
        () => api.mailTo(email),
        (found) => found.some((mail) => link.test(mail)),
      );
      const token = decodeURIComponent(link.exec(mails.find((mail) => link.test(mail)) ?? '')?.[1] ?? '');
      const wrong = await client.post('/v1/auth/recovery/confirm', {
        token,
        recovery_code: 'aaaa-bbbb-cccc',
      });
      expectProblem(wrong, 401, 'invalid_recovery_code');
      expectProblem(
        await login(email, PASSWORD, { totp_code: totpCode(secret, api.clock.now()) }),
        429,
        'rate_limited',
      );
      expectProblem(
        await client.post('/v1/auth/recovery/confirm', { token, recovery_code: codes[0] }),
        429,
        'rate_limited',
      );
      api.clock.advance(100);
      expect(
        (await client.post('/v1/auth/recovery/confirm', { token, recovery_code: codes[0] })).status,
      ).toBe(200);
    });

    it('counts an IPv6 client by its /64 on the per-client limit of reset requests', async () => {
      const from = (address: string) => ({ 'x-forwarded-for': address });
      for (let host = 1; host <= 20; host += 1) {
        const answer = await client.post(
          '/v1/auth/password/reset',
          { email: `nobody${host}@example.test` },
          from(`2001:db8:1:2::${host.toString(16)}`),
        );
        expect(answer.status).toBe(202);
      }
      const sameNetwork = await client.post(
        '/v1/auth/password/reset',
        { email: 'nobody21@example.test' },
        from('2001:db8:1:2:ffff:ffff:ffff:ffff'),
      );
      expectProblem(sameNetwork, 429, 'rate_limited');
      expect(Number(sameNetwork.headers['retry-after'])).toBeGreaterThan(0);
      const nextNetwork = await client.post(
        '/v1/auth/password/reset',
        { email: 'nobody21@example.test' },
        from('2001:db8:1:3::1'),
      );
      expect(nextNetwork.status).toBe(202);
    });

    it('keeps answering 202 to a stranger asking for an owner’s reset links, and the owner always has a working one', async () => {
      const { email } = await createAccount(api);
      const stranger = { 'x-forwarded-for': '192.0.2.10' };
      for (let request = 0; request < 6; request += 1) {
        const answer = await client.post('/v1/auth/password/reset', { email }, stranger);
        expect(answer.status).toBe(202);
        expect(answer.json).toEqual({ status: 'reset_sent' });
      }
      await client.deliverMail();
      const resetMails = async () => (await api.mailTo(email)).filter((mail) => /rst_/.test(mail));
      // The address's limit bounds what a stranger can send: three mails, not six.
      expect(await resetMails()).toHaveLength(3);

      const owner = { 'x-forwarded-for': '198.51.100.20' };
      expect((await client.post('/v1/auth/password/reset', { email }, owner)).status).toBe(202);
      await client.deliverMail();
      const mailed = await resetMails();
      expect(mailed).toHaveLength(3);
      const newest = /reset-password\?token=(rst_[^\s"<]+)/.exec(mailed.at(-1) ?? '')?.[1] ?? '';
      const confirmed = await client.post('/v1/auth/password/reset/confirm', {
        token: decodeURIComponent(newest),
        new_password: 'the owner’s new password',
      });
      expect(confirmed.status).toBe(200);

      // The reset used up every link: over the address's limit or not, the next request mails a new one.
      expect((await client.post('/v1/auth/password/reset', { email }, owner)).status).toBe(202);
      await client.deliverMail();
      expect(await resetMails()).toHaveLength(4);
      expect((await client.post('/v1/auth/password/reset', { email }, stranger)).status).toBe(202);
      await client.deliverMail();
      expect(await resetMails()).toHaveLength(4);
      // An hour later the last link has expired: a request mails a fresh one.
      api.clock.advance(3_600_000 + 1_000);
      expect((await client.post('/v1/auth/password/reset', { email }, owner)).status).toBe(202);
      await client.deliverMail();
      const last = (await resetMails()).at(-1) ?? '';
      expect(await resetMails()).toHaveLength(5);
      const token = decodeURIComponent(/reset-password\?token=(rst_[^\s"<]+)/.exec(last)?.[1] ?? '');
      expect(
        (
          await client.post('/v1/auth/password/reset/confirm', {
            token,
            new_password: 'yet another password',
          })
        ).status,
      ).toBe(200);
    });

    it('answers a request of one client over its own limit with 429, whatever the address', async () => {
      const busy = { 'x-forwarded-for': '192.0.2.99' };
      for (let request = 0; request < 20; request += 1) {
        expect(
          (await client.post('/v1/auth/password/reset', { email: `someone${request}@example.test` }, busy))
            .status,
        ).toBe(202);
      }
      expectProblem(
        await client.post('/v1/auth/password/reset', { email: 'someone-else@example.test' }, busy),
        429,
        'rate_limited',
      );
    });
  });
}
