import { IdentityStore, setOperatorFlag } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';
import { SoftwareAuthenticator } from '../../support/software-authenticator.js';
import { client, cookieOf, PASSWORD, usePasskeysFixture, withCookie } from './passkeys.fixture.js';
import { passkeyManagement } from './passkeys.management.js';
import { passkeyRefusals } from './passkeys.refusals.js';
import { passkeyRegistration } from './passkeys.registration.js';
import { passkeySignIn } from './passkeys.sign-in.js';

/** Passkeys through HTTP with genuine WebAuthn ceremonies (spec 4.8, 5.2.3, 5.4, 5.5, 7; ROUTES.md). */
export function runPasskeySuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  /** The calls every test makes, against one running API. */
  describe.skipIf(options.skip === true)(`passkeys through HTTP on ${storage} (spec 5.5, ROUTES.md)`, () => {
    const fx = usePasskeysFixture(storage);
    passkeyRegistration(fx);
    passkeySignIn(fx);
    passkeyRefusals(fx);
    passkeyManagement(fx);
  });

  describe.skipIf(options.skip === true || storage !== 'memory')(
    'passkeys where no origin fits the RP id',
    () => {
      let api: ApiHarness;
      beforeAll(async () => {
        // Browsers run WebAuthn only in a secure context: an http origin other than localhost cannot.
        api = await startApi(storage, { SVC_DASHBOARD_URL: 'http://dashboard.example.test' });
      }, 60_000);
      afterAll(async () => {
        await api?.close();
      });
      const { post, registrationOptions } = client(() => api);

      it('answers 501 passkeys_unavailable to the ceremonies', async () => {
        const signIn = await post('/v1/auth/passkeys/authentication/options', {});
        expect(signIn.status).toBe(501);
        expect(problemOf(signIn).code).toBe('passkeys_unavailable');
        const account = await createAccount(api);
        const register = await registrationOptions(account.cookie);
        expect(problemOf(register).code).toBe('passkeys_unavailable');
        const listed = await send(`${api.url}/v1/auth/passkeys`, { headers: withCookie(account.cookie) });
        expect(listed.json).toEqual({ passkeys: [] });
      });
    },
  );

  describe.skipIf(options.skip === true)(
    `passkey sign-in strength outside development on ${storage} (spec 5.4)`,
    () => {
      let api: ApiHarness;
      beforeAll(async () => {
        api = await startApi(storage, { SVC_ENV: 'production', SVC_SIGNUP_MODE: 'open' });
      }, 60_000);
      afterAll(async () => {
        await api?.close();
      });
      const { post, register, signIn } = client(() => api);

      it('lets an operator who signed in with a passkey create an admin token; a password session cannot', async () => {
        const account = await createAccount(api);
        const store = await api.container.getAsync<IdentityStore>(IdentityStore);
        await setOperatorFlag(store, account.email, true);
        const passwordOnly = cookieOf(
          await post('/v1/auth/login', { email: account.email, password: PASSWORD }),
        );
        const authenticator = new SoftwareAuthenticator();
        expect((await register(passwordOnly, authenticator)).status).toBe(201);
        const refused = await post(
          '/v1/tokens',
          { name: 'ops', scopes: ['admin'] },
          withCookie(passwordOnly),
        );
        expect(refused.status).toBe(403);
        expect(problemOf(refused).code).toBe('mfa_required');
        const signedIn = await signIn(authenticator, account.email);
        expect(signedIn.headers['set-cookie']).toMatch(/; Secure/i);
        const strong = cookieOf(signedIn);
        const allowed = await post('/v1/tokens', { name: 'ops', scopes: ['admin'] }, withCookie(strong));
        expect(allowed.status).toBe(201);
        const discoverable = await signIn(authenticator);
        expect(discoverable.status).toBe(200);
      });
    },
  );
}
