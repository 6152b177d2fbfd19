import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { type ApiHarness, eventually, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { problemOf, type RawAnswer, send } from '../../support/http.js';
import { type CreationOptionsSeen, SoftwareAuthenticator } from '../../support/software-authenticator.js';
import { totpCode } from '../../support/totp.js';

const PASSWORD = 'correct horse battery';
const ACTION = 'account.second_factor_changed';
const cookieOf = (answer: RawAnswer) =>
  /svc_session=([^;]*)/.exec(answer.headers['set-cookie'] ?? '')?.[1] ?? '';
const withCookie = (cookie: string) => ({ cookie: `svc_session=${cookie}` });
/** A code that is certainly not `code`. */
const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

interface AuditEntry {
  actor: string;
  action: string;
  target: string;
  request_id: string | null;
  client_ip: string | null;
  details: Record<string, unknown>;
}

/**
 * Second-factor changes in the audit log (issue 4 "audit entries for each change"; spec 6.2): turning TOTP on
 * and off, replacing recovery codes, adding and removing passkeys each write `account.second_factor_changed` with the change, written
 * with it (a refused change writes none), read back through GET /v1/auth/audit.
 */
export function runSecondFactorAuditSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`second-factor audit entries on ${storage} (spec 6.2)`, () => {
    let api: ApiHarness;
    beforeAll(async () => {
      api = await startApi(storage);
    }, 60_000);
    afterAll(async () => {
      await api?.close();
    });

    const post = (path: string, body: object | undefined, headers: Record<string, string> = {}) =>
      send(`${api.url}${path}`, { method: 'POST', headers, ...(body === undefined ? {} : { body }) });
    const entries = async (cookie: string) => {
      const answer = await send(`${api.url}/v1/auth/audit?action=${ACTION}`, { headers: withCookie(cookie) });
      expect(answer.status).toBe(200);
      return (answer.json as { entries: AuditEntry[] }).entries;
    };
    const accountIdOf = async (cookie: string) =>
      (
        (await send(`${api.url}/v1/auth/me`, { headers: withCookie(cookie) })).json as {
          account: { id: string };
        }
      ).account.id;

    it('audits TOTP on, recovery codes replaced and TOTP off, newest first, with actor, target and request id', async () => {
      const account = await createAccount(api);
      const cookie = cookieOf(await post('/v1/auth/login', { email: account.email, password: PASSWORD }));
      const id = await accountIdOf(cookie);
      expect(await entries(cookie)).toEqual([]);

      const { secret } = (await post('/v1/auth/totp', undefined, withCookie(cookie))).json as {
        secret: string;
      };
      const enabled = await post(
        '/v1/auth/totp/confirm',
        { code: totpCode(secret, api.clock.now()) },
        withCookie(cookie),
      );
      expect(enabled.status).toBe(200);
      const [first] = await entries(cookie);
      expect(first).toEqual({
        id: expect.any(String),
        actor: `account:${id}`,
        actor_email: account.email,
        action: ACTION,
        target: `accounts/${id}/second-factors/totp`,
        created_at: expect.any(String),
        client_ip: expect.any(String),
        request_id: enabled.headers['x-request-id'],
        details: { factor: 'totp', change: 'enabled', recovery_codes_issued: true },
      });

      const replaced = await post('/v1/auth/recovery-codes', undefined, withCookie(cookie));
      expect(replaced.status).toBe(200);
      api.clock.advance(30_000);
      const disabled = await post(
        '/v1/auth/totp/disable',
        { code: totpCode(secret, api.clock.now()) },
        withCookie(cookie),
      );
      expect(disabled.status).toBe(200);
      const log = await entries(cookie);
      expect(log.map((entry) => entry.details)).toEqual([
        { factor: 'totp', change: 'disabled', via: 'code' },
        { factor: 'recovery_codes', change: 'replaced' },
        { factor: 'totp', change: 'enabled', recovery_codes_issued: true },
      ]);
      expect(log.map((entry) => entry.request_id)).toEqual([
        disabled.headers['x-request-id'],
        replaced.headers['x-request-id'],
        enabled.headers['x-request-id'],
      ]);
    });

    it('writes no entry for a change that was refused', async () => {
      const account = await createAccount(api);
      const cookie = cookieOf(await post('/v1/auth/login', { email: account.email, password: PASSWORD }));
      const { secret } = (await post('/v1/auth/totp', undefined, withCookie(cookie))).json as {
        secret: string;
      };
      const wrong = await post(
        '/v1/auth/totp/confirm',
        { code: otherThan(totpCode(secret, api.clock.now())) },
        withCookie(cookie),
      );
      expect(problemOf(wrong).code).toBe('invalid_second_factor');
      const noFactor = await post('/v1/auth/recovery-codes', undefined, withCookie(cookie));
      expect(problemOf(noFactor).code).toBe('no_second_factor');
      expect(await entries(cookie)).toEqual([]);
    });

    it('audits a passkey added (with its first recovery codes) and removed', async () => {
      const account = await createAccount(api);
      const cookie = cookieOf(await post('/v1/auth/login', { email: account.email, password: PASSWORD }));
      const id = await accountIdOf(cookie);
      const authenticator = new SoftwareAuthenticator();
      const options = await post('/v1/auth/passkeys/registration/options', undefined, withCookie(cookie));
      expect(options.status).toBe(200);
      const registered = await post(
        '/v1/auth/passkeys/registration',
        { name: 'Laptop', response: authenticator.register(options.json as CreationOptionsSeen) },
        withCookie(cookie),
      );
      expect(registered.status).toBe(201);
      const passkeyId = (registered.json as { passkey: { id: string } }).passkey.id;
      const removed = await send(`${api.url}/v1/auth/passkeys/${passkeyId}`, {
        method: 'DELETE',
        headers: withCookie(cookie),
      });
      expect(removed.status).toBe(204);
      const log = await entries(cookie);
      expect(log.map(({ target, request_id, details }) => ({ target, request_id, details }))).toEqual([
        {
          target: `accounts/${id}/second-factors/passkey`,
          request_id: removed.headers['x-request-id'],
          details: { factor: 'passkey', change: 'removed', passkey_id: passkeyId },
        },
        {
          target: `accounts/${id}/second-factors/passkey`,
          request_id: registered.headers['x-request-id'],
          details: {
            factor: 'passkey',
            change: 'added',
            passkey_id: passkeyId,
            name: 'Laptop',
            recovery_codes_issued: true,
          },
        },
      ]);
    });

    it('audits the TOTP turned off by an account recovery, as the recovered account', async () => {
      const account = await createAccount(api);
      const cookie = cookieOf(await post('/v1/auth/login', { email: account.email, password: PASSWORD }));
      const id = await accountIdOf(cookie);
      const { secret } = (await post('/v1/auth/totp', undefined, withCookie(cookie))).json as {
        secret: string;
      };
      const confirmed = await post(
        '/v1/auth/totp/confirm',
        { code: totpCode(secret, api.clock.now()) },
        withCookie(cookie),
      );
      const codes = (confirmed.json as { recovery_codes: string[] }).recovery_codes;
      await post('/v1/auth/recovery', { email: account.email });
      const mails = await eventually(
        () => api.mailTo(account.email),
        (found) => found.some((mail) => /recovery=rec_/.test(mail)),
      );
      const token = decodeURIComponent(
        /recovery=(rec_[^\s"<]+)/.exec(mails.find((mail) => /recovery=rec_/.test(mail)) ?? '')?.[1] ?? '',
      );
      const recovered = await post('/v1/auth/recovery/confirm', { token, recovery_code: codes[0] ?? '' });
      expect(recovered.status).toBe(200);
      const [latest] = await entries(cookie);
      expect(latest).toMatchObject({
        actor: `account:${id}`,
        target: `accounts/${id}/second-factors/totp`,
        request_id: recovered.headers['x-request-id'],
        details: { factor: 'totp', change: 'disabled', via: 'recovery' },
      });
    });
  });
}
