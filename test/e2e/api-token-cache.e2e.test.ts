import { type ApiTokenService, IdentityStore } from '@svc/domain';
import { API_TOKEN_CACHE_TTL_MS, ApiTokenServiceToken } from '@svc/http-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, eventually, startApi } from '../support/api-harness.js';
import { problemOf, send } from '../support/http.js';

const PASSWORD = 'correct horse battery';

describe('API tokens authenticated from the server’s cache (spec 4.9, 5.3)', () => {
  let api: ApiHarness;
  let sequence = 0;
  beforeAll(async () => {
    api = await startApi('memory');
  });
  afterAll(async () => {
    await api?.close();
  });

  const post = (path: string, body: object, headers: Record<string, string> = {}) =>
    send(`${api.url}${path}`, { method: 'POST', body, headers });

  /** A verified account's session cookie and a fresh `account:read` token. */
  async function accountWithToken(): Promise<{ cookie: string; id: string; secret: string }> {
    sequence += 1;
    const email = `cache${sequence}-${Math.random().toString(36).slice(2, 8)}@example.test`;
    expect((await post('/v1/auth/signup', { email, password: PASSWORD })).status).toBe(202);
    const mails = await eventually(
      () => api.mailTo(email),
      (found) => found.length > 0,
    );
    const token = /verify-email\?token=([^\s"<]+)/.exec(mails[0] ?? '')?.[1];
    expect((await post('/v1/auth/verify', { token: decodeURIComponent(token ?? '') })).status).toBe(200);
    const login = await post('/v1/auth/login', { email, password: PASSWORD });
    const cookie = /svc_session=([^;]*)/.exec(login.headers['set-cookie'] ?? '')?.[1] ?? '';
    const created = await post(
      '/v1/tokens',
      { name: 'cached', scopes: ['account:read'] },
      { cookie: `svc_session=${cookie}` },
    );
    expect(created.status).toBe(201);
    const body = created.json as { token: { id: string }; secret: string };
    return { cookie, id: body.token.id, secret: body.secret };
  }

  const me = (secret: string) =>
    send(`${api.url}/v1/auth/me`, { headers: { authorization: `Bearer ${secret}` } });

  it('refuses a token revoked through DELETE /v1/tokens/{id} on the very next request (401 unauthenticated)', async () => {
    const { cookie, id, secret } = await accountWithToken();
    expect((await me(secret)).status).toBe(200);
    expect((await me(secret)).status).toBe(200);
    const revoked = await send(`${api.url}/v1/tokens/${id}`, {
      method: 'DELETE',
      headers: { cookie: `svc_session=${cookie}` },
    });
    expect(revoked.status).toBe(204);
    const next = await me(secret);
    expect(next.status).toBe(401);
    expect(problemOf(next).code).toBe('unauthenticated');
  });

  it('answers from the cache, and sees a revocation made elsewhere within the TTL', async () => {
    const { secret } = await accountWithToken();
    const first = await me(secret);
    expect(first.status).toBe(200);
    const accountId = (first.json as { account: { id: string } }).account.id;
    const store = api.container.get<IdentityStore>(IdentityStore);
    const [token] = await store.apiTokens.listByAccount(accountId, { limit: 1, after: null });
    // Revoked in the store directly, as another server sharing the database would: this server's cache
    // still holds the token for at most its TTL, then asks the store again.
    expect(await store.apiTokens.revoke(accountId, token?.id ?? '', api.clock.now())).toBe(true);
    expect((await me(secret)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, API_TOKEN_CACHE_TTL_MS + 50));
    expect((await me(secret)).status).toBe(401);
  });

  it('makes requests that miss together share one lookup', async () => {
    const { secret } = await accountWithToken();
    const store = api.container.get<IdentityStore>(IdentityStore);
    const findBySecretHash = store.apiTokens.findBySecretHash.bind(store.apiTokens);
    let lookups = 0;
    store.apiTokens.findBySecretHash = (hash) => {
      lookups += 1;
      return findBySecretHash(hash);
    };
    try {
      const answers = await Promise.all(Array.from({ length: 16 }, () => me(secret)));
      expect(answers.map((answer) => answer.status)).toEqual(Array(16).fill(200));
      expect(lookups).toBe(1);
      const tokens = await api.container.getAsync<ApiTokenService>(ApiTokenServiceToken);
      expect(await tokens.authenticate(secret)).not.toBeNull();
      expect(lookups).toBe(1);
    } finally {
      store.apiTokens.findBySecretHash = findBySecretHash;
    }
  });
});
