import {
  type ApiTokenRow,
  IdentityStore,
  KeyedHash,
  newApiTokenSecret,
  Random,
  SecretBox,
  SecretPurpose,
} from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import { DASHBOARD, freshAddress, identityClient, withCookie } from './identity-client.js';

const MINUTE = 60_000;

/**
 * Credentials made before an address is proven, and credentials that outlive a session (issue 27, findings 1
 * and 2; spec 5.3, 5.5): an unverified account mints nothing lasting, the first verification ends what was
 * made before it, token creation needs a recent sign-in, and a reset tells the owner which tokens live on.
 */
export function runCredentialLifetimeSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`credential lifetime through HTTP on ${storage} (issue 27)`, () => {
    let api: ApiHarness;
    let client: ReturnType<typeof identityClient>;
    beforeAll(async () => {
      api = await startApi(storage);
      client = identityClient(api);
    }, 60_000);
    afterAll(async () => {
      await api?.close();
    });

    const get = (path: string, cookie: string) => send(`${api.url}${path}`, { headers: withCookie(cookie) });
    const accountOf = async (cookie: string) =>
      (
        (await get('/v1/auth/me', cookie)).json as {
          account: { id: string; email_verified_at: string | null };
        }
      ).account;

    /** What a stranger could have minted before this release let nobody do it unverified: a token and TOTP. */
    async function plantLegacyCredentials(accountId: string): Promise<{ tokenSecret: string }> {
      const store = await api.container.getAsync<IdentityStore>(IdentityStore);
      const keyedHash = await api.container.getAsync<KeyedHash>(KeyedHash);
      const random = await api.container.getAsync<Random>(Random);
      const box = await api.container.getAsync<SecretBox>(SecretBox);
      const account = await store.accounts.findById(accountId);
      if (account === null) throw new Error('no account');
      const secret = newApiTokenSecret(random);
      const token: ApiTokenRow = {
        id: random.uuid(),
        accountId,
        orgId: account.orgId,
        name: 'planted before verification',
        scopes: ['profiles:read', 'account:read'],
        secretHash: keyedHash.mac(SecretPurpose.apiToken, secret),
        prefix: secret.slice(0, 8),
        createdAt: api.clock.now(),
        expiresAt: null,
        lastUsedAt: null,
        revokedAt: null,
      };
      await store.apiTokens.create(token);
      await store.secondFactors.setPendingTotp(accountId, box.seal('JBSWY3DPEHPK3PXP'));
      await store.secondFactors.enableTotp(accountId, api.clock.now(), 1);
      return { tokenSecret: secret };
    }

    it('lets an unverified account sign in, read itself, ask for a link and sign out, and nothing more (403 email_unverified)', async () => {
      const email = await client.signUp();
      const cookie = await client.signIn(email);
      expect((await accountOf(cookie)).email_verified_at).toBeNull();
      expect((await client.post('/v1/auth/resend-verification', { email })).status).toBe(202);

      const refusals = [
        await client.post('/v1/tokens', { name: 'ci', scopes: ['profiles:read'] }, withCookie(cookie)),
        await client.post('/v1/auth/totp', undefined, withCookie(cookie)),
        await client.post('/v1/auth/passkeys/registration/options', undefined, withCookie(cookie)),
      ];
      const profile = await client.post('/v1/profiles', { name: 'home' }, withCookie(cookie));
      expect(profile.status).toBe(201);
      const profileId = (profile.json as { id: string }).id;
      refusals.push(
        await client.post(`/v1/profiles/${profileId}/nodes`, { name: 'rack' }, withCookie(cookie)),
      );
      for (const refusal of refusals) {
        const problem = expectProblem(refusal, 403, 'email_unverified');
        expect(String(problem.type)).toMatch(/\/email_unverified$/);
        expect(String(problem.detail)).toMatch(/resend-verification/);
      }
      const nodes = await get(`/v1/profiles/${profileId}/nodes`, cookie);
      expect((nodes.json as { nodes: unknown[] }).nodes).toEqual([]);
      expect((await client.post('/v1/auth/logout', undefined, withCookie(cookie))).status).toBe(204);
      expect((await get('/v1/auth/me', cookie)).status).toBe(401);
    });

    it('ends every session made before the first verification: the owner signs in again and may then mint a token', async () => {
      const email = await client.signUp();
      const first = await client.signIn(email);
      const second = await client.signIn(email);
      const verified = await client.verify(email);
      expect(verified.status).toBe(200);
      expect(
        (verified.json as { account: { email_verified_at: string | null } }).account.email_verified_at,
      ).not.toBeNull();
      expectProblem(await get('/v1/auth/me', first), 401, 'unauthenticated');
      expectProblem(await get('/v1/auth/me', second), 401, 'unauthenticated');

      const fresh = await client.signIn(email);
      const token = await client.post(
        '/v1/tokens',
        { name: 'ci', scopes: ['profiles:read'] },
        withCookie(fresh),
      );
      expect(token.status).toBe(201);
    });

    it('closes the review’s takeover: what a stranger made under the owner’s address ends when the owner resets', async () => {
      const email = freshAddress();
      await client.signUp(email, 'the stranger’s password');
      const stranger = await client.signIn(email, 'the stranger’s password');
      expectProblem(
        await client.post('/v1/tokens', { name: 'keep', scopes: ['profiles:read'] }, withCookie(stranger)),
        403,
        'email_unverified',
      );
      const { tokenSecret } = await plantLegacyCredentials((await accountOf(stranger)).id);
      const asToken = { authorization: `Bearer ${tokenSecret}` };
      expect((await send(`${api.url}/v1/auth/me`, { headers: asToken })).status).toBe(200);

      // The owner never signed up; the account-exists route is a reset of the address they own.
      expect((await client.post('/v1/auth/password/reset', { email })).status).toBe(202);
      const reset = await client.linkIn(email, /reset-password\?token=(rst_[^\s"<]+)/, 2);
      const confirmed = await client.post('/v1/auth/password/reset/confirm', {
        token: reset,
        new_password: 'the owner’s own password',
      });
      expect(confirmed.status).toBe(200);

      expectProblem(await get('/v1/auth/me', stranger), 401, 'unauthenticated');
      expectProblem(await send(`${api.url}/v1/auth/me`, { headers: asToken }), 401, 'unauthenticated');
      expectProblem(
        await client.post('/v1/auth/login', { email, password: 'the stranger’s password' }),
        401,
        'invalid_credentials',
      );
      api.clock.advance(MINUTE);
      // The planted authenticator ended with the rest: the password alone signs in.
      const owner = await client.signIn(email, 'the owner’s own password');
      expect((await accountOf(owner)).email_verified_at).not.toBeNull();
    });

    it('ends credentials planted before verification through the emailed link as well', async () => {
      const email = await client.signUp();
      const early = await client.signIn(email);
      const { tokenSecret } = await plantLegacyCredentials((await accountOf(early)).id);
      expect((await client.verify(email)).status).toBe(200);
      expectProblem(
        await send(`${api.url}/v1/auth/me`, { headers: { authorization: `Bearer ${tokenSecret}` } }),
        401,
        'unauthenticated',
      );
      const again = await client.signIn(email);
      const passkeys = await get('/v1/auth/passkeys', again);
      expect((passkeys.json as { passkeys: unknown[] }).passkeys).toEqual([]);
      expect((await get('/v1/auth/recovery-codes', again)).json).toMatchObject({ remaining: 0 });
    });

    it('needs a sign-in within five minutes to create a token (spec 5.5.2: 403 reauth_required)', async () => {
      const account = await createAccount(api);
      const cookie = await client.signIn(account.email);
      api.clock.advance(5 * MINUTE + 1_000);
      expect((await get('/v1/auth/me', cookie)).status).toBe(200);
      const stale = await client.post(
        '/v1/tokens',
        { name: 'late', scopes: ['profiles:read'] },
        withCookie(cookie),
      );
      expectProblem(stale, 403, 'reauth_required');
      const fresh = await client.signIn(account.email);
      const created = await client.post(
        '/v1/tokens',
        { name: 'late', scopes: ['profiles:read'] },
        withCookie(fresh),
      );
      expect(created.status).toBe(201);
    });

    it('mails the owner the API tokens still active after a reset, with the link to review them', async () => {
      const account = await createAccount(api, ['profiles:read']);
      const cookie = await client.signIn(account.email);
      const deploy = await client.post(
        '/v1/tokens',
        { name: 'deploy', scopes: ['profiles:read', 'logs:read'] },
        withCookie(cookie),
      );
      const gone = await client.post(
        '/v1/tokens',
        { name: 'gone', scopes: ['profiles:read'] },
        withCookie(cookie),
      );
      const expiring = await client.post(
        '/v1/tokens',
        {
          name: 'expiring',
          scopes: ['profiles:read'],
          expires_at: new Date(api.clock.now().getTime() + 10 * MINUTE).toISOString(),
        },
        withCookie(cookie),
      );
      const goneId = (gone.json as { token: { id: string } }).token.id;
      expect(
        (await send(`${api.url}/v1/tokens/${goneId}`, { method: 'DELETE', headers: withCookie(cookie) }))
          .status,
      ).toBe(204);
      api.clock.advance(11 * MINUTE);
      expect((await send(`${api.url}/v1/profiles`, { headers: account.auth })).status).toBe(200);

      expect((await client.post('/v1/auth/password/reset', { email: account.email })).status).toBe(202);
      await client.deliverMail();
      const before = (await api.mailTo(account.email)).length;
      const token = await client.linkIn(account.email, /reset-password\?token=(rst_[^\s"<]+)/, before);
      const confirmed = await client.post('/v1/auth/password/reset/confirm', {
        token,
        new_password: 'a new password 123',
      });
      expect(confirmed.status).toBe(200);
      expectProblem(await get('/v1/auth/me', cookie), 401, 'unauthenticated');

      const notice = await client.mailTo(account.email, before + 1);
      expect(notice).toMatch(/password .* was reset/);
      expect(notice).toContain(`${DASHBOARD}/account/security`);
      const secrets = [account.token, (deploy.json as { secret: string }).secret];
      for (const secret of secrets) expect(notice).toContain(`${secret.slice(0, 8)}…`);
      for (const secret of secrets) expect(notice).not.toContain(secret);
      expect(notice).toMatch(/These 2 are still active/);
      expect(notice).toMatch(/- deploy \(.*profiles:read, logs:read; never used\)/);
      expect(notice).toMatch(/- tests \(.*last used /);
      expect(notice).not.toMatch(/- gone \(/);
      expect(notice).not.toMatch(/- expiring \(/);
      expect(notice).not.toContain((expiring.json as { secret: string }).secret.slice(0, 8));
      // Tokens live on: the reset ended sessions only, as the notice says.
      expect((await send(`${api.url}/v1/profiles`, { headers: account.auth })).status).toBe(200);
    });
  });
}
