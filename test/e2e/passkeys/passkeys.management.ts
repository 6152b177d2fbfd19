import { IdentityStore } from '@svc/domain';
import { expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { eventually } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';
import { SoftwareAuthenticator } from '../../support/software-authenticator.js';
import { totpCode } from '../../support/totp.js';
import {
  cookieOf,
  PASSWORD,
  type PasskeyBody,
  type PasskeysFixture,
  withCookie,
} from './passkeys.fixture.js';

/** Recent sign-in, the last credential, duplicates, second factors and recovery sessions (spec 4.8). */
export function passkeyManagement(fx: PasskeysFixture): void {
  const { post, registrationOptions, register, signIn, me, withPasskey } = fx;
  it('needs a recent sign-in for registration options and removal (403 reauth_required)', async () => {
    const { account, authenticator, passkey } = await withPasskey();
    fx.api.clock.advance(6 * 60_000);
    const options = await registrationOptions(account.cookie);
    expect(options.status).toBe(403);
    expect(problemOf(options).code).toBe('reauth_required');
    const removal = await send(`${fx.api.url}/v1/auth/passkeys/${passkey.id}`, {
      method: 'DELETE',
      headers: withCookie(account.cookie),
    });
    expect(removal.status).toBe(403);
    expect(problemOf(removal).code).toBe('reauth_required');
    const fresh = cookieOf(await signIn(authenticator, account.email));
    expect((await registrationOptions(fresh)).status).toBe(200);
    const removed = await send(`${fx.api.url}/v1/auth/passkeys/${passkey.id}`, {
      method: 'DELETE',
      headers: withCookie(fresh),
    });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect((await me(fresh)).mfa).toBe(false);
    const mails = await eventually(
      () => fx.api.mailTo(account.email),
      (found) => found.some((mail) => /a passkey was removed/.test(mail)),
    );
    expect(mails.some((mail) => /a passkey was removed/.test(mail))).toBe(true);
    const gone = await signIn(authenticator);
    expect(problemOf(gone).code).toBe('invalid_credentials');
    const again = await send(`${fx.api.url}/v1/auth/passkeys/${passkey.id}`, {
      method: 'DELETE',
      headers: withCookie(fresh),
    });
    expect(again.status).toBe(404);
  });

  it('refuses to remove the last way to sign in (409 last_credential, spec 4.8)', async () => {
    const { account, authenticator, passkey } = await withPasskey();
    const store = await fx.api.container.getAsync<IdentityStore>(IdentityStore);
    const record = await store.accounts.findByEmail(account.email);
    // A passkey-only account: the password is gone, the passkey is its one way in.
    await store.accounts.setPasswordHash(record?.id ?? '', null);
    const password = await post('/v1/auth/login', { email: account.email, password: PASSWORD });
    expect(problemOf(password).code).toBe('invalid_credentials');
    const cookie = cookieOf(await signIn(authenticator, account.email));
    const remove = (id: string) =>
      send(`${fx.api.url}/v1/auth/passkeys/${id}`, { method: 'DELETE', headers: withCookie(cookie) });
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
    const listed = await send(`${fx.api.url}/v1/auth/passkeys`, { headers: withCookie(cookie) });
    expect((listed.json as { passkeys: PasskeyBody[] }).passkeys).toHaveLength(1);
    expect((await me(cookie)).mfa).toBe(true);
  });

  it('refuses to register the same credential twice (409 passkey_exists)', async () => {
    const { account, authenticator } = await withPasskey();
    const twice = await register(account.cookie, authenticator);
    expect(twice.status).toBe(409);
    expect(problemOf(twice).code).toBe('passkey_exists');
    const other = await createAccount(fx.api);
    expect(problemOf(await register(other.cookie, authenticator)).code).toBe('passkey_exists');
    expect((await me(other.cookie)).mfa).toBe(false);
  });

  it('counts a passkey as the first second factor: TOTP added later brings no codes, and turning it off keeps mfa on', async () => {
    const { account } = await withPasskey();
    const started = await post('/v1/auth/totp', undefined, withCookie(account.cookie));
    const { secret } = started.json as { secret: string };
    const confirmed = await post(
      '/v1/auth/totp/confirm',
      { code: totpCode(secret, fx.api.clock.now()) },
      withCookie(account.cookie),
    );
    expect(confirmed.json).toEqual({ enabled: true });
    fx.api.clock.advance(30_000);
    const off = await post(
      '/v1/auth/totp/disable',
      { code: totpCode(secret, fx.api.clock.now()) },
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
      () => fx.api.mailTo(account.email),
      (found) => found.some((mail) => /recovery=rec_/.test(mail)),
    );
    const token = decodeURIComponent(
      /recovery=(rec_[^\s"<]+)/.exec(mails.find((mail) => /recovery=rec_/.test(mail)) ?? '')?.[1] ?? '',
    );
    const restricted = cookieOf(
      await post('/v1/auth/recovery/confirm', { token, recovery_code: codes[0] ?? '' }),
    );
    expect(
      problemOf(await send(`${fx.api.url}/v1/auth/passkeys`, { headers: withCookie(restricted) })).code,
    ).toBe('mfa_enrolment_required');
    fx.api.clock.advance(6 * 60_000);
    const added = await register(restricted, new SoftwareAuthenticator());
    expect(added.status).toBe(201);
    expect((await send(`${fx.api.url}/v1/profiles`, { headers: withCookie(restricted) })).status).toBe(200);
  });
}
