import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { type ApiHarness, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import { identityClient, withCookie } from './identity-client.js';

const MINUTE = 60_000;

/**
 * Replays of answers that carry a secret shown once (issue 35, finding 1; ADR 0018): an Idempotency-Key replay
 * of POST /v1/tokens passes the step-up of spec 5.5.2 like the first request, and a stored secret goes back
 * only to the session or API token that made it; another one reusing the key meets 409 idempotency_key_reused
 * (spec 7).
 */
describe('replays of secrets shown once (issue 35)', () => {
  let api: ApiHarness;
  let client: ReturnType<typeof identityClient>;
  beforeAll(async () => {
    api = await startApi('memory');
    client = identityClient(api);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
  });

  const createToken = (cookie: string, key: string) =>
    client.post(
      '/v1/tokens',
      { name: 'replayed', scopes: ['profiles:read'] },
      { ...withCookie(cookie), 'idempotency-key': key },
    );

  it('answers 403 reauth_required to a replay of POST /v1/tokens once the sign-in is older than five minutes', async () => {
    const account = await createAccount(api);
    const cookie = await client.signIn(account.email);
    const first = await createToken(cookie, 'stale-replay');
    expect(first.status).toBe(201);
    const within = await createToken(cookie, 'stale-replay');
    expect(within.headers['idempotent-replayed']).toBe('true');
    expect(within.json).toEqual(first.json);

    api.clock.advance(5 * MINUTE + 1_000);
    const late = await createToken(cookie, 'stale-replay');
    expectProblem(late, 403, 'reauth_required');
    expect(late.text).not.toContain((first.json as { secret: string }).secret);
  });

  it('refuses the replay of a token secret to another session of the same account with 409 idempotency_key_reused', async () => {
    const account = await createAccount(api);
    const mine = await client.signIn(account.email);
    const other = await client.signIn(account.email);
    const first = await createToken(mine, 'one-session');
    expect(first.status).toBe(201);
    const stolen = await createToken(other, 'one-session');
    expectProblem(stolen, 409, 'idempotency_key_reused');
    expect(stolen.text).not.toContain((first.json as { secret: string }).secret);
    const again = await createToken(mine, 'one-session');
    expect(again.json).toEqual(first.json);
  });

  it('replays a node enrolment code to the API token that asked for it, not to another token of the account', async () => {
    const account = await createAccount(api);
    const profile = await send(`${api.url}/v1/profiles`, {
      method: 'POST',
      headers: account.auth,
      body: { name: 'home' },
    });
    expect(profile.status).toBe(201);
    const profileId = (profile.json as { id: string }).id;
    const secondToken = await client.post(
      '/v1/tokens',
      { name: 'second', scopes: ['profiles:read', 'profiles:write'] },
      withCookie(account.cookie),
    );
    const secondAuth = { authorization: `Bearer ${(secondToken.json as { secret: string }).secret}` };
    const createNode = (auth: Record<string, string>) =>
      send(`${api.url}/v1/profiles/${profileId}/nodes`, {
        method: 'POST',
        headers: { ...auth, 'idempotency-key': 'enrol-once' },
        body: { name: 'router' },
      });
    const first = await createNode(account.auth);
    expect(first.status, first.text).toBe(201);
    const code = (first.json as { enrolment_code: string }).enrolment_code;
    const other = await createNode(secondAuth);
    expectProblem(other, 409, 'idempotency_key_reused');
    expect(other.text).not.toContain(code);
    const replay = await createNode(account.auth);
    expect((replay.json as { enrolment_code: string }).enrolment_code).toBe(code);
  });
});
