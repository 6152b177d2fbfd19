import { expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { problemOf, send } from '../../support/http.js';
import type { CreationOptionsSeen } from '../../support/software-authenticator.js';
import { cookieOf, type PasskeyBody, type PasskeysFixture, withCookie } from './passkeys.fixture.js';

/** Signing in with a passkey, with or without an email, and unknown addresses (spec 5.1). */
export function passkeySignIn(fx: PasskeysFixture): void {
  const { post, registrationOptions, signInOptions, me, withPasskey } = fx;
  it('signs in with the passkey: 200 {account}, a session cookie, last_used_at set (spec 5.1)', async () => {
    const { account, authenticator, passkey } = await withPasskey();
    fx.api.clock.advance(60_000);
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
    const sessions = await send(`${fx.api.url}/v1/auth/sessions`, { headers: withCookie(cookie) });
    expect(
      (sessions.json as { sessions: { current: boolean; method: string }[] }).sessions.find(
        (session) => session.current,
      )?.method,
    ).toBe('passkey');
    const listed = await send(`${fx.api.url}/v1/auth/passkeys`, { headers: withCookie(cookie) });
    expect((listed.json as { passkeys: PasskeyBody[] }).passkeys).toEqual([
      { ...passkey, last_used_at: fx.api.clock.now().toISOString() },
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
    const bare = await createAccount(fx.api);
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
    fx.api.clock.advance(2 * 60_000 + 1_000);
    const late = await post('/v1/auth/passkeys/authentication', {
      response: authenticator.authenticate(stale),
    });
    expect(late.status).toBe(400);
    expect(problemOf(late).code).toBe('ceremony_invalid');
  });
}
