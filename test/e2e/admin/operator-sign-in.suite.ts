import { IdentityStore, setOperatorFlag } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { problemOf, type RawAnswer, send } from '../../support/http.js';
import { totpCode } from '../../support/totp.js';

const PASSWORD = 'correct horse battery';
const cookieOf = (answer: RawAnswer) =>
  /svc_session=([^;]*)/.exec(answer.headers['set-cookie'] ?? '')?.[1] ?? '';

/** Every admin route, one request each. */
const ADMIN_PROBES: { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; path: string; body?: object }[] = [
  { method: 'GET', path: '/v1/admin/operator-blocks' },
  {
    method: 'POST',
    path: '/v1/admin/operator-blocks',
    body: { pattern: 'mfa.example', reason_code: 'abuse' },
  },
  { method: 'DELETE', path: '/v1/admin/operator-blocks/00000000-0000-4000-8000-000000000000' },
  { method: 'GET', path: '/v1/admin/source-blocks' },
  { method: 'DELETE', path: '/v1/admin/source-blocks/00000000-0000-4000-8000-000000000000' },
  { method: 'GET', path: '/v1/admin/profiles/abcdef' },
  { method: 'PATCH', path: '/v1/admin/profiles/abcdef', body: { suspended: false } },
  { method: 'POST', path: '/v1/admin/source-blocks', body: { cidr: '192.0.2.0/24', reason: 'x' } },
  {
    method: 'POST',
    path: '/v1/admin/accounts/00000000-0000-4000-8000-000000000000/deletion',
    body: { reason: 'x' },
  },
  { method: 'DELETE', path: '/v1/admin/accounts/00000000-0000-4000-8000-000000000000/deletion', body: {} },
  { method: 'GET', path: '/v1/admin/list-reports' },
  {
    method: 'PATCH',
    path: '/v1/admin/list-reports/00000000-0000-4000-8000-000000000000',
    body: { status: 'rejected', resolution_note: 'x' },
  },
  { method: 'GET', path: '/v1/admin/lists/sources' },
  { method: 'GET', path: '/v1/admin/lists/versions' },
  { method: 'GET', path: '/v1/admin/audit' },
  { method: 'GET', path: '/v1/admin/client-errors' },
  { method: 'GET', path: '/v1/admin/feedback' },
];

/**
 * Outside development an operator needs a strong sign-in (spec 5.4, 7): a password-only session gets 403
 * mfa_required on every admin route; a password plus authenticator code passes.
 */
export function runOperatorSignInSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(
    `operator routes outside development on ${storage} (spec 5.4)`,
    () => {
      let api: ApiHarness;
      beforeAll(async () => {
        api = await startApi(storage, { SVC_ENV: 'production', SVC_SIGNUP_MODE: 'open' });
      }, 60_000);
      afterAll(async () => {
        await api?.close();
      });

      it('answers 403 mfa_required to a password-only operator session and lets a TOTP sign-in through', async () => {
        const account = await createAccount(api);
        await setOperatorFlag(
          await api.container.getAsync<IdentityStore>(IdentityStore),
          account.email,
          true,
        );
        const call = (probe: (typeof ADMIN_PROBES)[number], cookie: string) =>
          send(`${api.url}${probe.path}`, {
            method: probe.method,
            headers: { cookie: `svc_session=${cookie}` },
            ...(probe.body === undefined ? {} : { body: probe.body }),
          });
        const login = (extra: object = {}) =>
          send(`${api.url}/v1/auth/login`, {
            method: 'POST',
            body: { email: account.email, password: PASSWORD, ...extra },
          });
        const weak = cookieOf(await login());
        for (const probe of ADMIN_PROBES) {
          const refused = await call(probe, weak);
          expect(refused.status, `${probe.method} ${probe.path}`).toBe(403);
          expect(problemOf(refused).code).toBe('mfa_required');
        }
        const headers = { cookie: `svc_session=${weak}` };
        const { secret } = (await send(`${api.url}/v1/auth/totp`, { method: 'POST', headers })).json as {
          secret: string;
        };
        await send(`${api.url}/v1/auth/totp/confirm`, {
          method: 'POST',
          headers,
          body: { code: totpCode(secret, api.clock.now()) },
        });
        api.clock.advance(30_000);
        const strong = cookieOf(await login({ totp_code: totpCode(secret, api.clock.now()) }));
        const allowed = await call(ADMIN_PROBES[0] as (typeof ADMIN_PROBES)[number], strong);
        expect(allowed.status).toBe(200);
      });
    },
  );
}
