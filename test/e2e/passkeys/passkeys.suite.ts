import { IdentityStore, setOperatorFlag } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, eventually, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { problemOf, type RawAnswer, send } from '../../support/http.js';
import {
  type CreationOptionsSeen,
  type RequestOptionsSeen,
  SoftwareAuthenticator,
} from '../../support/software-authenticator.js';
import { totpCode } from '../../support/totp.js';

const PASSWORD = 'correct horse battery';
const cookieOf = (answer: RawAnswer) =>
  /svc_session=([^;]*)/.exec(answer.headers['set-cookie'] ?? '')?.[1] ?? '';
const withCookie = (cookie: string) => ({ cookie: `svc_session=${cookie}` });

interface PasskeyBody {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  transports: string[];
}
interface RequestOptionsBody extends RequestOptionsSeen {
  allowCredentials?: { id: string; type: string; transports?: string[] }[];
  userVerification?: string;
  timeout?: number;
}

/** Passkeys through HTTP with genuine WebAuthn ceremonies (spec 4.8, 5.2.3, 5.4, 5.5, 7; ROUTES.md). */
export function runPasskeySuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  /** The calls every test makes, against one running API. */
  function client(api: () => ApiHarness) {
    const post = (path: string, body: object | undefined, headers: Record<string, string> = {}) =>
      send(`${api().url}${path}`, { method: 'POST', headers, ...(body === undefined ? {} : { body }) });
    const registrationOptions = (cookie: string) =>
      post('/v1/auth/passkeys/registration/options', undefined, withCookie(cookie));

    /** Runs a registration ceremony through the API; returns the answer of the verification. */
    async function register(
      cookie: string,
      authenticator: SoftwareAuthenticator,
      extra: { name?: string; origin?: string } = {},
    ): Promise<RawAnswer> {
      const started = await registrationOptions(cookie);
      expect(started.status).toBe(200);
      const response = authenticator.register(started.json as CreationOptionsSeen, {
        ...(extra.origin === undefined ? {} : { origin: extra.origin }),
      });
      return post(
        '/v1/auth/passkeys/registration',
        { ...(extra.name === undefined ? {} : { name: extra.name }), response },
        withCookie(cookie),
      );
    }

    const signInOptions = async (email?: string): Promise<RequestOptionsBody> => {
      const answer = await post(
        '/v1/auth/passkeys/authentication/options',
        email === undefined ? {} : { email },
      );
      expect(answer.status).toBe(200);
      return answer.json as RequestOptionsBody;
    };

    /** Runs a sign-in ceremony through the API. */
    async function signIn(authenticator: SoftwareAuthenticator, email?: string): Promise<RawAnswer> {
      const response = authenticator.authenticate(await signInOptions(email));
      return post('/v1/auth/passkeys/authentication', { response });
    }

    return { post, registrationOptions, register, signInOptions, signIn };
  }

  describe.skipIf(options.skip === true)(`passkeys through HTTP on ${storage} (spec 5.5, ROUTES.md)`, () => {
    let api: ApiHarness;
    beforeAll(async () => {
      api = await startApi(storage);
    }, 60_000);
    afterAll(async () => {
      await api?.close();
    });
    const { post, registrationOptions, register, signInOptions, signIn } = client(() => api);
    const me = async (cookie: string) =>
      (
        (await send(`${api.url}/v1/auth/me`, { headers: withCookie(cookie) })).json as {
          account: { id: string; email: string; mfa: boolean };
        }
      ).account;

    /** A fresh account with one passkey; the cookie is the (recent) password session that registered it. */
    async function withPasskey(): Promise<{
      account: TestAccount;
      authenticator: SoftwareAuthenticator;
      passkey: PasskeyBody;
    }> {
      const account = await createAccount(api);
      const authenticator = new SoftwareAuthenticator();
      const stored = await register(account.cookie, authenticator);
      expect(stored.status).toBe(201);
      return { account, authenticator, passkey: (stored.json as { passkey: PasskeyBody }).passkey };
    }

    it('registers a passkey: creation options, a verified attestation, 201 with ten recovery codes, mfa on', async () => {
      const account = await createAccount(api);
      expect((await me(account.cookie)).mfa).toBe(false);
      const started = await registrationOptions(account.cookie);
      expect(started.status).toBe(200);
      const creation = started.json as CreationOptionsSeen & {
        rp: { name: string; id: string };
        user: { id: string; name: string; displayName: string };
        timeout: number;
        attestation: string;
        excludeCredentials: unknown[];
        authenticatorSelection: { residentKey: string; userVerification: string };
        pubKeyCredParams: { type: string; alg: number }[];
      };
      expect(creation.rp).toEqual({ name: 'svc', id: 'localhost' });
      const accountId = (await me(account.cookie)).id;
      expect(Buffer.from(creation.user.id, 'base64url').toString('utf8')).toBe(accountId);
      expect(creation.user.name).toBe(account.email);
      expect(Buffer.from(creation.challenge, 'base64url')).toHaveLength(32);
      expect(creation.timeout).toBe(120_000);
      expect(creation.attestation).toBe('none');
      expect(creation.excludeCredentials).toEqual([]);
      expect(creation.authenticatorSelection).toMatchObject({
        residentKey: 'preferred',
        userVerification: 'preferred',
      });
      expect(creation.pubKeyCredParams).toContainEqual({ type: 'public-key', alg: -7 });

      const authenticator = new SoftwareAuthenticator();
      const stored = await post(
        '/v1/auth/passkeys/registration',
        { name: '  Laptop  ', response: authenticator.register(creation) },
        withCookie(account.cookie),
      );
      expect(stored.status).toBe(201);
      const body = stored.json as { passkey: PasskeyBody; recovery_codes: string[] };
      expect(body.passkey).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'Laptop',
        created_at: api.clock.now().toISOString(),
        last_used_at: null,
        transports: ['hybrid', 'internal'],
      });
      expect(stored.headers.location).toBe(`/v1/auth/passkeys/${body.passkey.id}`);
      expect(body.recovery_codes).toHaveLength(10);
      expect(new Set(body.recovery_codes).size).toBe(10);
      expect((await me(account.cookie)).mfa).toBe(true);
      const remaining = await send(`${api.url}/v1/auth/recovery-codes`, {
        headers: withCookie(account.cookie),
      });
      expect(remaining.json).toEqual({ remaining: 10 });

      const mails = await eventually(
        () => api.mailTo(account.email),
        (found) => found.some((mail) => /passkey \("Laptop"\) was added/.test(mail)),
      );
      expect(mails.some((mail) => /passkey \("Laptop"\) was added/.test(mail))).toBe(true);

      // A second passkey: no new recovery codes, a default name, and the first one is excluded.
      const next = await registrationOptions(account.cookie);
      expect((next.json as { excludeCredentials: { id: string }[] }).excludeCredentials).toEqual([
        { id: authenticator.id, type: 'public-key', transports: ['hybrid', 'internal'] },
      ]);
      const second = await post(
        '/v1/auth/passkeys/registration',
        { response: new SoftwareAuthenticator().register(next.json as CreationOptionsSeen) },
        withCookie(account.cookie),
      );
      expect(second.status).toBe(201);
      expect(second.json).toEqual({ passkey: expect.objectContaining({ name: 'Passkey 2' }) });
    });

    it('lists and renames passkeys (1 to 64 characters); another account’s passkey is 404', async () => {
      const { account, passkey } = await withPasskey();
      const listed = await send(`${api.url}/v1/auth/passkeys`, { headers: withCookie(account.cookie) });
      expect(listed.status).toBe(200);
      expect(listed.json).toEqual({ passkeys: [passkey] });
      const rename = (id: string, name: string, cookie = account.cookie) =>
        send(`${api.url}/v1/auth/passkeys/${id}`, {
          method: 'PATCH',
          headers: withCookie(cookie),
          body: { name },
        });
      const renamed = await rename(passkey.id, 'Phone');
      expect(renamed.status).toBe(200);
      expect(renamed.json).toEqual({ ...passkey, name: 'Phone' });
      for (const name of ['', '   ', 'x'.repeat(65)]) {
        const refused = await rename(passkey.id, name);
        expect(refused.status).toBe(422);
        expect(problemOf(refused).code).toBe('validation_failed');
      }
      expect((await rename(passkey.id, 'x'.repeat(64))).status).toBe(200);
      const other = await createAccount(api);
      expect((await rename(passkey.id, 'Mine', other.cookie)).status).toBe(404);
      const notUuid = await rename('not-a-uuid', 'Phone');
      expect(notUuid.status).toBe(422);
      const byToken = await send(`${api.url}/v1/auth/passkeys`, { headers: account.auth });
      expect(problemOf(byToken).code).toBe('session_required');
    });

    it('signs in with the passkey: 200 {account}, a session cookie, last_used_at set (spec 5.1)', async () => {
      const { account, authenticator, passkey } = await withPasskey();
      api.clock.advance(60_000);
      const options = await signInOptions(account.email);
      expect(options.rpId).toBe('localhost');
      expect(options.userVerification).toBe('preferred');
      expect(options.allowCredentials).toEqual([
        { id: authenticator.id, type: 'public-key', transports: ['hybrid', 'internal'] },
      ]);
      const signedIn = await post('/v1/auth/passkeys/authentication', {
        response: authenticator.authenticate(options),
      });
      expect(signedIn.status).toBe(200);
      const body = signedIn.json as { account: { email: string; mfa: boolean } };
      expect(body.account.email).toBe(account.email);
      expect(body.account.mfa).toBe(true);
      const cookie = cookieOf(signedIn);
      expect(signedIn.headers['set-cookie']).toMatch(/svc_session=[^;]+; .*HttpOnly/i);
      expect((await me(cookie)).email).toBe(account.email);
      const sessions = await send(`${api.url}/v1/auth/sessions`, { headers: withCookie(cookie) });
      expect(
        (sessions.json as { sessions: { current: boolean; method: string }[] }).sessions.find(
          (session) => session.current,
        )?.method,
      ).toBe('passkey');
      const listed = await send(`${api.url}/v1/auth/passkeys`, { headers: withCookie(cookie) });
      expect((listed.json as { passkeys: PasskeyBody[] }).passkeys).toEqual([
        { ...passkey, last_used_at: api.clock.now().toISOString() },
      ]);
    });

    it('signs in with a discoverable passkey without an email', async () => {
      const { account, authenticator } = await withPasskey();
      const options = await signInOptions();
      expect(options.allowCredentials).toBeUndefined();
      expect(Buffer.from(options.challenge, 'base64url')).toHaveLength(32);
      const signedIn = await post('/v1/auth/passkeys/authentication', {
        response: authenticator.authenticate(options),
      });
      expect(signedIn.status).toBe(200);
      expect((signedIn.json as { account: { email: string } }).account.email).toBe(account.email);
    });

    it('answers an unknown address with the same shape: one stable stand-in credential', async () => {
      const unknown = 'nobody-passkey@example.test';
      const first = await signInOptions(unknown);
      const again = await signInOptions(unknown.toUpperCase());
      expect(first.allowCredentials).toHaveLength(1);
      expect(again.allowCredentials).toEqual(first.allowCredentials);
      expect(first.challenge).not.toBe(again.challenge);
      const { account, authenticator } = await withPasskey();
      const known = await signInOptions(account.email);
      expect(Object.keys(known).sort()).toEqual(Object.keys(first).sort());
      expect(Object.keys(known.allowCredentials?.[0] ?? {}).sort()).toEqual(
        Object.keys(first.allowCredentials?.[0] ?? {}).sort(),
      );
      expect(known.allowCredentials?.[0]?.id).toBe(authenticator.id);
      // An account without passkeys looks the same as no account.
      const bare = await createAccount(api);
      expect((await signInOptions(bare.email)).allowCredentials).toEqual([
        expect.objectContaining({ type: 'public-key', transports: ['hybrid', 'internal'] }),
      ]);
      expect((await signInOptions(bare.email)).allowCredentials?.[0]?.id).not.toBe(
        first.allowCredentials?.[0]?.id,
      );
    });

    it('refuses a replayed or unknown challenge with 400 ceremony_invalid', async () => {
      const { account, authenticator } = await withPasskey();
      const response = authenticator.authenticate(await signInOptions(account.email));
      expect((await post('/v1/auth/passkeys/authentication', { response })).status).toBe(200);
      const replayed = await post('/v1/auth/passkeys/authentication', { response });
      expect(replayed.status).toBe(400);
      expect(problemOf(replayed).code).toBe('ceremony_invalid');
      const invented = authenticator.authenticate(await signInOptions(account.email), {
        challenge: Buffer.alloc(32, 7).toString('base64url'),
      });
      expect(problemOf(await post('/v1/auth/passkeys/authentication', { response: invented })).code).toBe(
        'ceremony_invalid',
      );
      // A registration challenge is not a sign-in challenge, and sign-in challenges expire after two minutes.
      const creation = (await registrationOptions(account.cookie)).json as CreationOptionsSeen;
      const crossed = authenticator.authenticate({ challenge: creation.challenge, rpId: 'localhost' });
      expect(problemOf(await post('/v1/auth/passkeys/authentication', { response: crossed })).code).toBe(
        'ceremony_invalid',
      );
      const stale = await signInOptions(account.email);
      api.clock.advance(2 * 60_000 + 1_000);
      const late = await post('/v1/auth/passkeys/authentication', {
        response: authenticator.authenticate(stale),
      });
      expect(late.status).toBe(400);
      expect(problemOf(late).code).toBe('ceremony_invalid');
    });

    it('refuses a registration challenge that is replayed, expired or another session’s (400 ceremony_invalid)', async () => {
      const account = await createAccount(api);
      const authenticator = new SoftwareAuthenticator();
      const creation = (await registrationOptions(account.cookie)).json as CreationOptionsSeen;
      const response = authenticator.register(creation);
      const other = cookieOf(await post('/v1/auth/login', { email: account.email, password: PASSWORD }));
      const foreign = await post('/v1/auth/passkeys/registration', { response }, withCookie(other));
      expect(foreign.status).toBe(400);
      expect(problemOf(foreign).code).toBe('ceremony_invalid');
      expect(
        (await post('/v1/auth/passkeys/registration', { response }, withCookie(account.cookie))).status,
      ).toBe(201);
      const replayed = await post('/v1/auth/passkeys/registration', { response }, withCookie(account.cookie));
      expect(problemOf(replayed).code).toBe('ceremony_invalid');
      const fresh = await createAccount(api);
      const later = (await registrationOptions(fresh.cookie)).json as CreationOptionsSeen;
      api.clock.advance(2 * 60_000 + 1_000);
      const expired = await post(
        '/v1/auth/passkeys/registration',
        { response: new SoftwareAuthenticator().register(later) },
        withCookie(fresh.cookie),
      );
      expect(problemOf(expired).code).toBe('ceremony_invalid');
    });

    it('refuses a registration made on another origin (400 passkey_invalid) and stores nothing', async () => {
      const account = await createAccount(api);
      const refused = await register(account.cookie, new SoftwareAuthenticator(), {
        origin: 'https://evil.example',
      });
      expect(refused.status).toBe(400);
      expect(problemOf(refused).code).toBe('passkey_invalid');
      const listed = await send(`${api.url}/v1/auth/passkeys`, { headers: withCookie(account.cookie) });
      expect(listed.json).toEqual({ passkeys: [] });
      expect((await me(account.cookie)).mfa).toBe(false);
    });

    it('refuses an assertion signed by another key or made on another origin (400 passkey_invalid)', async () => {
      const { account, authenticator } = await withPasskey();
      const elsewhere = authenticator.authenticate(await signInOptions(account.email), {
        origin: 'https://evil.example',
      });
      const refused = await post('/v1/auth/passkeys/authentication', { response: elsewhere });
      expect(refused.status).toBe(400);
      expect(problemOf(refused).code).toBe('passkey_invalid');
      const impostor = new SoftwareAuthenticator();
      const forged = impostor.authenticate(await signInOptions(account.email));
      const claimed = { ...forged, id: authenticator.id, rawId: authenticator.id };
      expect(problemOf(await post('/v1/auth/passkeys/authentication', { response: claimed })).code).toBe(
        'passkey_invalid',
      );
    });

    it('refuses a signature counter that does not increase (a cloned authenticator)', async () => {
      const account = await createAccount(api);
      const authenticator = new SoftwareAuthenticator('http://localhost:3000', { signCount: 5 });
      expect((await register(account.cookie, authenticator)).status).toBe(201);
      expect((await signIn(authenticator, account.email)).status).toBe(200);
      expect(authenticator.signCount).toBe(6);
      const options = await signInOptions(account.email);
      const stuck = await post('/v1/auth/passkeys/authentication', {
        response: authenticator.authenticate(options, { signCount: 6 }),
      });
      expect(stuck.status).toBe(400);
      expect(problemOf(stuck).code).toBe('passkey_invalid');
      const backwards = await post('/v1/auth/passkeys/authentication', {
        response: authenticator.authenticate(await signInOptions(account.email), { signCount: 3 }),
      });
      expect(problemOf(backwards).code).toBe('passkey_invalid');
      expect((await signIn(authenticator, account.email)).status).toBe(200);
    });

    it('answers 401 invalid_credentials for a passkey that is not registered', async () => {
      const stranger = new SoftwareAuthenticator();
      stranger.register({ challenge: 'AA', rp: { id: 'localhost' }, user: { id: 'dXNlcg' } });
      const answer = await signIn(stranger);
      expect(answer.status).toBe(401);
      expect(problemOf(answer).code).toBe('invalid_credentials');
    });

    it('is not slowed by failed password sign-ins of the address (spec 5.2.3)', async () => {
      const { account, authenticator } = await withPasskey();
      for (let attempt = 0; attempt < 5; attempt += 1)
        await post('/v1/auth/login', { email: account.email, password: 'not the password at all' });
      const started = performance.now();
      expect((await signIn(authenticator, account.email)).status).toBe(200);
      expect(performance.now() - started).toBeLessThan(1_000);
    });

    it('needs a recent sign-in for registration options and removal (403 reauth_required)', async () => {
      const { account, authenticator, passkey } = await withPasskey();
      api.clock.advance(6 * 60_000);
      const options = await registrationOptions(account.cookie);
      expect(options.status).toBe(403);
      expect(problemOf(options).code).toBe('reauth_required');
      const removal = await send(`${api.url}/v1/auth/passkeys/${passkey.id}`, {
        method: 'DELETE',
        headers: withCookie(account.cookie),
      });
      expect(removal.status).toBe(403);
      expect(problemOf(removal).code).toBe('reauth_required');
      const fresh = cookieOf(await signIn(authenticator, account.email));
      expect((await registrationOptions(fresh)).status).toBe(200);
      const removed = await send(`${api.url}/v1/auth/passkeys/${passkey.id}`, {
        method: 'DELETE',
        headers: withCookie(fresh),
      });
      expect(removed.status).toBe(204);
      expect(removed.text).toBe('');
      expect((await me(fresh)).mfa).toBe(false);
      const mails = await eventually(
        () => api.mailTo(account.email),
        (found) => found.some((mail) => /a passkey was removed/.test(mail)),
      );
      expect(mails.some((mail) => /a passkey was removed/.test(mail))).toBe(true);
      const gone = await signIn(authenticator);
      expect(problemOf(gone).code).toBe('invalid_credentials');
      const again = await send(`${api.url}/v1/auth/passkeys/${passkey.id}`, {
        method: 'DELETE',
        headers: withCookie(fresh),
      });
      expect(again.status).toBe(404);
    });

    it('refuses to remove the last way to sign in (409 last_credential, spec 4.8)', async () => {
      const { account, authenticator, passkey } = await withPasskey();
      const store = await api.container.getAsync<IdentityStore>(IdentityStore);
      const record = await store.accounts.findByEmail(account.email);
      // A passkey-only account: the password is gone, the passkey is its one way in.
      await store.accounts.setPasswordHash(record?.id ?? '', null);
      const password = await post('/v1/auth/login', { email: account.email, password: PASSWORD });
      expect(problemOf(password).code).toBe('invalid_credentials');
      const cookie = cookieOf(await signIn(authenticator, account.email));
      const remove = (id: string) =>
        send(`${api.url}/v1/auth/passkeys/${id}`, { method: 'DELETE', headers: withCookie(cookie) });
      const last = await remove(passkey.id);
      expect(last.status).toBe(409);
      expect(problemOf(last).code).toBe('last_credential');

      const spare = new SoftwareAuthenticator();
      const added = await register(cookie, spare);
      expect(added.status).toBe(201);
      expect((added.json as { recovery_codes?: string[] }).recovery_codes).toBeUndefined();
      // Two removals racing for the last two passkeys: one wins, the other finds the last one left.
      const sparePasskey = (added.json as { passkey: PasskeyBody }).passkey;
      const raced = await Promise.all([remove(passkey.id), remove(sparePasskey.id)]);
      expect(raced.map((answer) => answer.status).sort()).toEqual([204, 409]);
      const listed = await send(`${api.url}/v1/auth/passkeys`, { headers: withCookie(cookie) });
      expect((listed.json as { passkeys: PasskeyBody[] }).passkeys).toHaveLength(1);
      expect((await me(cookie)).mfa).toBe(true);
    });

    it('refuses to register the same credential twice (409 passkey_exists)', async () => {
      const { account, authenticator } = await withPasskey();
      const twice = await register(account.cookie, authenticator);
      expect(twice.status).toBe(409);
      expect(problemOf(twice).code).toBe('passkey_exists');
      const other = await createAccount(api);
      expect(problemOf(await register(other.cookie, authenticator)).code).toBe('passkey_exists');
      expect((await me(other.cookie)).mfa).toBe(false);
    });

    it('counts a passkey as the first second factor: TOTP added later brings no codes, and turning it off keeps mfa on', async () => {
      const { account } = await withPasskey();
      const started = await post('/v1/auth/totp', undefined, withCookie(account.cookie));
      const { secret } = started.json as { secret: string };
      const confirmed = await post(
        '/v1/auth/totp/confirm',
        { code: totpCode(secret, api.clock.now()) },
        withCookie(account.cookie),
      );
      expect(confirmed.json).toEqual({ enabled: true });
      api.clock.advance(30_000);
      const off = await post(
        '/v1/auth/totp/disable',
        { code: totpCode(secret, api.clock.now()) },
        withCookie(account.cookie),
      );
      expect(off.json).toEqual({ enabled: false });
      expect((await me(account.cookie)).mfa).toBe(true);
    });

    it('lets a restricted recovery session register a passkey, which lifts the restriction', async () => {
      const { account } = await withPasskey();
      const codes = await (async () => {
        const replaced = await post('/v1/auth/recovery-codes', undefined, withCookie(account.cookie));
        return (replaced.json as { recovery_codes: string[] }).recovery_codes;
      })();
      await post('/v1/auth/recovery', { email: account.email });
      const mails = await eventually(
        () => api.mailTo(account.email),
        (found) => found.some((mail) => /recovery=rec_/.test(mail)),
      );
      const token = decodeURIComponent(
        /recovery=(rec_[^\s"<]+)/.exec(mails.find((mail) => /recovery=rec_/.test(mail)) ?? '')?.[1] ?? '',
      );
      const restricted = cookieOf(
        await post('/v1/auth/recovery/confirm', { token, recovery_code: codes[0] ?? '' }),
      );
      expect(
        problemOf(await send(`${api.url}/v1/auth/passkeys`, { headers: withCookie(restricted) })).code,
      ).toBe('mfa_enrolment_required');
      api.clock.advance(6 * 60_000);
      const added = await register(restricted, new SoftwareAuthenticator());
      expect(added.status).toBe(201);
      expect((await send(`${api.url}/v1/profiles`, { headers: withCookie(restricted) })).status).toBe(200);
    });
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
