import { expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { eventually } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';
import { type CreationOptionsSeen, SoftwareAuthenticator } from '../../support/software-authenticator.js';
import { type PasskeyBody, type PasskeysFixture, withCookie } from './passkeys.fixture.js';

/** Registering, listing and renaming passkeys (spec 4.8). */
export function passkeyRegistration(fx: PasskeysFixture): void {
  const { post, registrationOptions, me, withPasskey } = fx;
  it('registers a passkey: creation options, a verified attestation, 201 with ten recovery codes, mfa on', async () => {
    const account = await createAccount(fx.api);
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
      created_at: fx.api.clock.now().toISOString(),
      last_used_at: null,
      transports: ['hybrid', 'internal'],
    });
    expect(stored.headers.location).toBe(`/v1/auth/passkeys/${body.passkey.id}`);
    expect(body.recovery_codes).toHaveLength(10);
    expect(new Set(body.recovery_codes).size).toBe(10);
    expect((await me(account.cookie)).mfa).toBe(true);
    const remaining = await send(`${fx.api.url}/v1/auth/recovery-codes`, {
      headers: withCookie(account.cookie),
    });
    expect(remaining.json).toEqual({ remaining: 10 });

    const mails = await eventually(
      () => fx.api.mailTo(account.email),
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
    const listed = await send(`${fx.api.url}/v1/auth/passkeys`, { headers: withCookie(account.cookie) });
    expect(listed.status).toBe(200);
    expect(listed.json).toEqual({ passkeys: [passkey] });
    const rename = (id: string, name: string, cookie = account.cookie) =>
      send(`${fx.api.url}/v1/auth/passkeys/${id}`, {
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
    const other = await createAccount(fx.api);
    expect((await rename(passkey.id, 'Mine', other.cookie)).status).toBe(404);
    const notUuid = await rename('not-a-uuid', 'Phone');
    expect(notUuid.status).toBe(422);
    const byToken = await send(`${fx.api.url}/v1/auth/passkeys`, { headers: account.auth });
    expect(problemOf(byToken).code).toBe('session_required');
  });
}
