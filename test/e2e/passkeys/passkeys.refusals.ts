import { expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { problemOf, send } from '../../support/http.js';
import { type CreationOptionsSeen, SoftwareAuthenticator } from '../../support/software-authenticator.js';
import { cookieOf, PASSWORD, type PasskeysFixture, withCookie } from './passkeys.fixture.js';

/** Ceremonies refused: replayed challenges, other origins and keys, cloned authenticators (spec 7). */
export function passkeyRefusals(fx: PasskeysFixture): void {
  const { post, registrationOptions, register, signInOptions, signIn, me, withPasskey } = fx;
  it('refuses a registration challenge that is replayed, expired or another session’s (400 ceremony_invalid)', async () => {
    const account = await createAccount(fx.api);
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
    const fresh = await createAccount(fx.api);
    const later = (await registrationOptions(fresh.cookie)).json as CreationOptionsSeen;
    fx.api.clock.advance(2 * 60_000 + 1_000);
    const expired = await post(
      '/v1/auth/passkeys/registration',
      { response: new SoftwareAuthenticator().register(later) },
      withCookie(fresh.cookie),
    );
    expect(problemOf(expired).code).toBe('ceremony_invalid');
  });

  it('refuses a registration made on another origin (400 passkey_invalid) and stores nothing', async () => {
    const account = await createAccount(fx.api);
    const refused = await register(account.cookie, new SoftwareAuthenticator(), {
      origin: 'https://evil.example',
    });
    expect(refused.status).toBe(400);
    expect(problemOf(refused).code).toBe('passkey_invalid');
    const listed = await send(`${fx.api.url}/v1/auth/passkeys`, { headers: withCookie(account.cookie) });
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
    const account = await createAccount(fx.api);
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
}
