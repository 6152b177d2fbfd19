import type { AuthenticationResponseJson, RegistrationResponseJson } from '@svc/domain';
import { createTestApp, type TestApp } from '@svc/http-server';
import { createClient, isApiError } from '@svc/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/api-harness.js';
import {
  type CreationOptionsSeen,
  type RequestOptionsSeen,
  SoftwareAuthenticator,
} from '../support/software-authenticator.js';

describe('SDK passkeys: a real ceremony from registration to sign-in (ROUTES.md second factors)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('registers a passkey, lists and renames it, then signs in with it alone', async () => {
    const email = 'passkey-sdk@example.test';
    const client = createClient({ baseUrl: app.url });
    await client.auth.signup({ email, password: 'correct horse battery' });
    const mail = await eventually(
      async () => app.mailer.to(email),
      (found) => found.length > 0,
    );
    const token = decodeURIComponent(/token=([^\s"<]+)/.exec(mail[0]?.text ?? '')?.[1] ?? '');
    await client.auth.verify(token);
    await client.auth.login({ email, password: 'correct horse battery' });

    const authenticator = new SoftwareAuthenticator();
    const creation = await client.auth.passkeys.registrationOptions();
    const registered = await client.auth.passkeys.register(
      authenticator.register(
        creation as unknown as CreationOptionsSeen,
      ) as unknown as RegistrationResponseJson,
      'Laptop',
    );
    expect(registered.passkey.name).toBe('Laptop');
    expect(registered.recovery_codes).toHaveLength(10);
    const renamed = await client.auth.passkeys.rename(registered.passkey.id, 'Work laptop');
    expect(renamed.name).toBe('Work laptop');
    expect((await client.auth.passkeys.list()).map((passkey) => passkey.name)).toEqual(['Work laptop']);

    const fresh = createClient({ baseUrl: app.url });
    const request = await fresh.auth.passkeys.authenticationOptions();
    const account = await fresh.auth.passkeys.authenticate(
      authenticator.authenticate(
        request as unknown as RequestOptionsSeen,
      ) as unknown as AuthenticationResponseJson,
    );
    expect(account.email).toBe(email);
    expect(fresh.sessionCookie()).toBeDefined();
    expect((await fresh.auth.me()).email).toBe(email);

    const replayed = await fresh.auth.passkeys
      .authenticate(
        authenticator.authenticate(
          request as unknown as RequestOptionsSeen,
        ) as unknown as AuthenticationResponseJson,
      )
      .catch((error: unknown) => error);
    expect(isApiError(replayed, 'ceremony_invalid')).toBe(true);
  });
});
