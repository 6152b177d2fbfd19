import { afterAll, beforeAll, expect } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { type RawAnswer, send } from '../../support/http.js';
import {
  type CreationOptionsSeen,
  type RequestOptionsSeen,
  SoftwareAuthenticator,
} from '../../support/software-authenticator.js';

export const PASSWORD = 'correct horse battery';

export const cookieOf = (answer: RawAnswer) =>
  /svc_session=([^;]*)/.exec(answer.headers['set-cookie'] ?? '')?.[1] ?? '';

export const withCookie = (cookie: string) => ({ cookie: `svc_session=${cookie}` });

export interface PasskeyBody {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  transports: string[];
}

export interface RequestOptionsBody extends RequestOptionsSeen {
  allowCredentials?: { id: string; type: string; transports?: string[] }[];
  userVerification?: string;
  timeout?: number;
}

export function client(api: () => ApiHarness) {
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

/**
 * Starts the server on `storage` once for the suite, with the passkey ceremonies every behaviour uses and an
 * account signed in with a registered passkey on demand.
 */
export function usePasskeysFixture(storage: HarnessStorage) {
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
  return {
    get api(): ApiHarness {
      return api;
    },
    post,
    registrationOptions,
    register,
    signInOptions,
    signIn,
    me,
    withPasskey,
  };
}

/** What every behaviour of the suite reads: the running server, its accounts and the helpers above. */
export type PasskeysFixture = ReturnType<typeof usePasskeysFixture>;
