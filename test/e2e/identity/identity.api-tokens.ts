import { describe, expect, it } from 'vitest';
import { problemOf, send } from '../../support/http.js';
import { HOUR, type IdentityFixture } from './identity.fixture.js';

/** API tokens and their scopes (spec 4.9, 5.3, 5.4). */
export function identityApiTokens(fx: IdentityFixture): void {
  const { post, withCookie, signedIn, tokenFor } = fx;
  describe('API tokens and scopes (4.9, 5.3, 5.4)', () => {
    it('creates a token once: 201 with Location, the record, and an svc_ secret of 52 characters', async () => {
      const { cookie } = await signedIn();
      const created = await post(
        '/v1/tokens',
        { name: 'deploy', scopes: ['profiles:read', 'account:read'] },
        withCookie(cookie),
      );
      expect(created.status).toBe(201);
      const body = created.json as { token: Record<string, unknown>; secret: string };
      expect(body.secret).toMatch(/^svc_[A-Za-z0-9]{52}$/);
      expect(created.headers.location).toBe(`/v1/tokens/${body.token.id}`);
      expect(body.token).toMatchObject({ name: 'deploy', scopes: ['profiles:read', 'account:read'] });
      expect(JSON.stringify(body.token)).not.toContain(body.secret);
      const listed = await send(`${fx.api.url}/v1/tokens`, {
        headers: { authorization: `Bearer ${body.secret}` },
      });
      expect(listed.status).toBe(200);
      const tokens = (listed.json as { tokens: Record<string, unknown>[] }).tokens;
      expect(tokens).toHaveLength(1);
      expect(JSON.stringify(tokens)).not.toContain(body.secret);
      expect(tokens[0]?.last_used_at).toEqual(expect.any(String));
    });

    it('authenticates GET /v1/auth/me with a token holding account:read; others get insufficient_scope', async () => {
      const { email, cookie } = await signedIn();
      const reader = await tokenFor(cookie, ['account:read']);
      const me = await send(`${fx.api.url}/v1/auth/me`, {
        headers: { authorization: `Bearer ${reader.secret}` },
      });
      expect((me.json as { account: { email: string } }).account.email).toBe(email);
      const narrow = await tokenFor(cookie, ['profiles:read']);
      const refused = await send(`${fx.api.url}/v1/tokens`, {
        headers: { authorization: `Bearer ${narrow.secret}` },
      });
      expect(refused.status).toBe(403);
      expect(problemOf(refused).code).toBe('insufficient_scope');
    });

    it('lets only a session create or revoke tokens (403 session_required)', async () => {
      const { cookie } = await signedIn();
      const { id, secret } = await tokenFor(cookie, ['account:read']);
      const create = await post(
        '/v1/tokens',
        { name: 'x', scopes: ['account:read'] },
        { authorization: `Bearer ${secret}` },
      );
      expect(problemOf(create).code).toBe('session_required');
      const revoke = await send(`${fx.api.url}/v1/tokens/${id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${secret}` },
      });
      expect(problemOf(revoke).code).toBe('session_required');
    });

    it('revokes a token: 204, then the token answers 401 and a second revoke 404', async () => {
      const { cookie } = await signedIn();
      const { id, secret } = await tokenFor(cookie, ['account:read']);
      const revoked = await send(`${fx.api.url}/v1/tokens/${id}`, {
        method: 'DELETE',
        headers: withCookie(cookie),
      });
      expect(revoked.status).toBe(204);
      const after = await send(`${fx.api.url}/v1/auth/me`, {
        headers: { authorization: `Bearer ${secret}` },
      });
      expect(after.status).toBe(401);
      expect(problemOf(after).code).toBe('unauthenticated');
      const again = await send(`${fx.api.url}/v1/tokens/${id}`, {
        method: 'DELETE',
        headers: withCookie(cookie),
      });
      expect(again.status).toBe(404);
    });

    it('answers 404 when revoking another organisation’s token, which keeps working', async () => {
      const mine = await signedIn();
      const theirs = await signedIn();
      const token = await tokenFor(theirs.cookie, ['account:read']);
      const answer = await send(`${fx.api.url}/v1/tokens/${token.id}`, {
        method: 'DELETE',
        headers: withCookie(mine.cookie),
      });
      expect(answer.status).toBe(404);
      expect(problemOf(answer).code).toBe('not_found');
      const still = await send(`${fx.api.url}/v1/auth/me`, {
        headers: { authorization: `Bearer ${token.secret}` },
      });
      expect(still.status).toBe(200);
      const mineList = await send(`${fx.api.url}/v1/tokens`, { headers: withCookie(mine.cookie) });
      expect((mineList.json as { tokens: unknown[] }).tokens).toHaveLength(0);
    });

    it('refuses the admin scope to an account that is not an operator with 403 insufficient_scope', async () => {
      const { cookie } = await signedIn();
      const answer = await post('/v1/tokens', { name: 'ops', scopes: ['admin'] }, withCookie(cookie));
      expect(answer.status).toBe(403);
      expect(problemOf(answer).code).toBe('insufficient_scope');
    });

    it('validates the body: unknown scopes, empty names and past expiries are 422 with fields', async () => {
      const { cookie } = await signedIn();
      const bad = await post('/v1/tokens', { name: '', scopes: ['everything'] }, withCookie(cookie));
      expect(bad.status).toBe(422);
      const fields = (problemOf(bad).errors as { field: string }[]).map((error) => error.field).sort();
      expect(fields).toEqual(['name', 'scopes.0']);
      const past = await post(
        '/v1/tokens',
        { name: 'old', scopes: ['account:read'], expires_at: '2001-01-01T00:00:00Z' },
        withCookie(cookie),
      );
      expect(problemOf(past).errors).toEqual([{ field: 'expires_at', message: 'must be in the future' }]);
    });

    it('stops accepting a token at its expiry', async () => {
      const { cookie } = await signedIn();
      const expiresAt = new Date(fx.api.clock.now().getTime() + HOUR).toISOString();
      const created = await post(
        '/v1/tokens',
        { name: 'short', scopes: ['account:read'], expires_at: expiresAt },
        withCookie(cookie),
      );
      const { secret, token } = created.json as { secret: string; token: { expires_at: string } };
      expect(token.expires_at).toBe(expiresAt);
      const auth = { authorization: `Bearer ${secret}` };
      expect((await send(`${fx.api.url}/v1/auth/me`, { headers: auth })).status).toBe(200);
      fx.api.clock.advance(HOUR);
      expect((await send(`${fx.api.url}/v1/auth/me`, { headers: auth })).status).toBe(401);
    });

    it('pages tokens newest first with sealed cursors; a modified cursor is 400 invalid_cursor', async () => {
      const { cookie } = await signedIn();
      for (const name of ['one', 'two', 'three']) {
        await post('/v1/tokens', { name, scopes: ['account:read'] }, withCookie(cookie));
        fx.api.clock.advance(1_000);
      }
      const first = await send(`${fx.api.url}/v1/tokens?limit=2`, { headers: withCookie(cookie) });
      const page = first.json as { tokens: { name: string }[]; next_cursor: string };
      expect(page.tokens.map((token) => token.name)).toEqual(['three', 'two']);
      const second = await send(`${fx.api.url}/v1/tokens?limit=2&cursor=${page.next_cursor}`, {
        headers: withCookie(cookie),
      });
      const last = second.json as { tokens: { name: string }[]; next_cursor: string | null };
      expect(last.tokens.map((token) => token.name)).toEqual(['one']);
      expect(last.next_cursor).toBeNull();
      const tampered = await send(`${fx.api.url}/v1/tokens?cursor=${page.next_cursor}x`, {
        headers: withCookie(cookie),
      });
      expect(tampered.status).toBe(400);
      expect(problemOf(tampered).code).toBe('invalid_cursor');
    });

    it('replays a token creation repeated with the same Idempotency-Key', async () => {
      const { cookie } = await signedIn();
      const headers = withCookie(cookie, { 'idempotency-key': 'create-token-1' });
      const first = await post('/v1/tokens', { name: 'once', scopes: ['account:read'] }, headers);
      const again = await post('/v1/tokens', { name: 'once', scopes: ['account:read'] }, headers);
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.text).toBe(first.text);
      const listed = await send(`${fx.api.url}/v1/tokens`, { headers: withCookie(cookie) });
      expect((listed.json as { tokens: unknown[] }).tokens).toHaveLength(1);
    });

    it('answers 401 unauthenticated for a malformed or unknown bearer token and node tokens', async () => {
      for (const value of [
        'Bearer svc_short',
        `Bearer svc_${'A'.repeat(52)}`,
        'Bearer svcnode_abc',
        'Basic abc',
      ]) {
        const answer = await send(`${fx.api.url}/v1/auth/me`, { headers: { authorization: value } });
        expect(answer.status).toBe(401);
        expect(problemOf(answer).code).toBe('unauthenticated');
      }
    });
  });
}
