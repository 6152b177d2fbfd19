import { API_VERSION } from '@svc/domain';
import { createTestApp, type TestApp } from '@svc/http-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemOf, send } from '../support/http.js';
import { probeRoutes } from '../support/probe-routes.js';

const DASHBOARD = 'https://dash.example.test';
const SIGNUP_SITE = 'https://www.example.test';

describe('API conventions through HTTP (spec 4.1, 5.6, 7)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp({
      env: {
        SVC_DASHBOARD_URL: `${DASHBOARD}/`,
        SVC_SIGNUP_ORIGINS: `${SIGNUP_SITE},${DASHBOARD}`,
        SVC_SIGNUP_MODE: 'closed',
        SVC_BODY_LIMIT_BYTES: '2048',
      },
      routes: [probeRoutes],
    });
  });
  afterAll(async () => app.close());

  describe('headers on every response (4.1.2, 5.6)', () => {
    it.each([
      ['a success', '/v1/meta', 200],
      ['an unknown route', '/v1/nothing-here', 404],
    ])('%s carries request id, API version and the security headers', async (_case, path, status) => {
      const answer = await send(`${app.url}${path}`);
      expect(answer.status).toBe(status);
      expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(answer.headers['x-svc-api-version']).toBe(API_VERSION);
      expect(answer.headers['content-security-policy']).toContain("default-src 'none'");
      expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(answer.headers['x-frame-options']).toBe('DENY');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['strict-transport-security']).toBeUndefined();
    });

    it('gives each request its own id', async () => {
      const [first, second] = await Promise.all([send(`${app.url}/v1/meta`), send(`${app.url}/v1/meta`)]);
      expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
    });
  });

  describe('problem documents (7, 2.12)', () => {
    it('answers an unknown route with 404 not_found quoting the request id', async () => {
      const answer = await send(`${app.url}/v1/unknown`);
      const problem = problemOf(answer);
      expect(problem).toMatchObject({
        type: `${app.url}/problems/not_found`,
        title: 'Not Found',
        status: 404,
        code: 'not_found',
        request_id: answer.headers['x-request-id'],
      });
      expect(typeof problem.detail).toBe('string');
    });

    it('answers a known path with another method with 405 and Allow', async () => {
      const answer = await send(`${app.url}/v1/meta`, { method: 'DELETE' });
      expect(answer.status).toBe(405);
      expect(problemOf(answer).code).toBe('method_not_allowed');
      expect(answer.headers.allow).toBe('OPTIONS, GET');
    });

    it('routes a path under a known prefix like any other: 405 for another method, 404 for an unknown path, case and a trailing slash ignored', async () => {
      const put = await send(`${app.url}/v1/profiles/abc123`, { method: 'PUT' });
      expect(put.status).toBe(405);
      expect(put.headers.allow).toBe('OPTIONS, GET, PATCH, DELETE');
      const unknown = await send(`${app.url}/v1/profiles/abc123/unknown`);
      expect(unknown.status).toBe(404);
      expect(problemOf(unknown).code).toBe('not_found');
      // Routed to GET /v1/profiles/{id}, which wants a credential (a 404 would mean no route matched).
      const shouted = await send(`${app.url}/V1/Profiles/abc123/`);
      expect(shouted.status).toBe(401);
      expect(problemOf(shouted).code).toBe('unauthenticated');
    });

    it('answers malformed JSON with 400 bad_request', async () => {
      const answer = await send(`${app.url}/v1/probe/widgets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name": ',
      });
      expect(answer.status).toBe(400);
      expect(problemOf(answer).code).toBe('bad_request');
    });

    it('answers a body over the limit with 400 body_too_large', async () => {
      const answer = await send(`${app.url}/v1/probe/widgets`, {
        method: 'POST',
        body: { name: 'x'.repeat(4096) },
      });
      expect(answer.status).toBe(400);
      expect(problemOf(answer).code).toBe('body_too_large');
    });

    it('answers a body that is not JSON with 415 unsupported_media_type', async () => {
      const answer = await send(`${app.url}/v1/probe/widgets`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'name=x',
      });
      expect(answer.status).toBe(415);
      expect(problemOf(answer).code).toBe('unsupported_media_type');
    });

    it('answers invalid fields with 422 validation_failed naming dotted fields and allowed values', async () => {
      const answer = await send(`${app.url}/v1/probe/widgets`, {
        method: 'POST',
        body: { name: '', settings: { block_mode: 'drop' } },
      });
      expect(answer.status).toBe(422);
      const problem = problemOf(answer);
      expect(problem.code).toBe('validation_failed');
      const errors = problem.errors as { field: string; message: string }[];
      expect(errors.map((error) => error.field).sort()).toEqual(['name', 'settings.block_mode']);
      const blockMode = errors.find((error) => error.field === 'settings.block_mode');
      for (const value of ['nxdomain', 'refused', 'null', 'block-page'])
        expect(blockMode?.message).toContain(value);
    });

    it('answers an uncaught failure with 500 internal and leaks nothing of it', async () => {
      const answer = await send(`${app.url}/v1/probe/crash`);
      expect(answer.status).toBe(500);
      expect(problemOf(answer).code).toBe('internal');
      expect(answer.text).not.toContain('secret internal detail');
      expect(answer.text).not.toContain('app.js');
    });
  });

  describe('CORS (4.1.7)', () => {
    it('adds credentials and exposed headers for a dashboard origin, and varies on Origin', async () => {
      const answer = await send(`${app.url}/v1/meta`, { headers: { origin: DASHBOARD } });
      expect(answer.headers['access-control-allow-origin']).toBe(DASHBOARD);
      expect(answer.headers['access-control-allow-credentials']).toBe('true');
      expect(answer.headers['access-control-expose-headers']).toBe(
        'ETag, Retry-After, X-Request-Id, Content-Disposition, Location',
      );
      expect(answer.headers.vary).toContain('Origin');
    });

    it('adds no CORS headers for an origin that is not allowed', async () => {
      const answer = await send(`${app.url}/v1/meta`, { headers: { origin: 'https://evil.example' } });
      expect(answer.status).toBe(200);
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
      expect(answer.headers.vary).toContain('Origin');
    });

    it('answers a dashboard preflight with 204 without authentication', async () => {
      const answer = await send(`${app.url}/v1/probe/versioned`, {
        method: 'OPTIONS',
        headers: {
          origin: DASHBOARD,
          'access-control-request-method': 'PUT',
          'access-control-request-headers': 'content-type, if-match',
        },
      });
      expect(answer.status).toBe(204);
      expect(answer.headers['access-control-allow-origin']).toBe(DASHBOARD);
      expect(answer.headers['access-control-allow-methods']).toBe('GET, POST, PUT, PATCH, DELETE');
      expect(answer.headers['access-control-allow-headers']).toBe(
        'Content-Type, If-Match, Idempotency-Key, Last-Event-ID, Authorization',
      );
    });

    it('allows an exact signup origin, the route method and Content-Type on a signup surface', async () => {
      const answer = await send(`${app.url}/v1/waitlist`, {
        method: 'OPTIONS',
        headers: {
          origin: SIGNUP_SITE,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(answer.status).toBe(204);
      expect(answer.headers['access-control-allow-origin']).toBe(SIGNUP_SITE);
      expect(answer.headers['access-control-allow-methods']).toBe('POST');
      expect(answer.headers['access-control-allow-headers']).toBe('Content-Type');
      expect(answer.headers['access-control-allow-credentials']).toBe('true');
      expect(answer.headers.vary).toBe('Origin');
    });

    it.each([
      ['an unlisted origin', { origin: 'https://evil.example', 'access-control-request-method': 'POST' }],
      ['another method', { origin: SIGNUP_SITE, 'access-control-request-method': 'DELETE' }],
      [
        'another header',
        {
          origin: SIGNUP_SITE,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization',
        },
      ],
    ])('refuses a signup preflight with %s with 403', async (_case, headers) => {
      const answer = await send(`${app.url}/v1/waitlist`, { method: 'OPTIONS', headers });
      expect(answer.status).toBe(403);
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('names the origin on actual signup responses and varies only when Origin is present', async () => {
      const withOrigin = await send(`${app.url}/v1/waitlist`, {
        method: 'POST',
        headers: { origin: SIGNUP_SITE },
        body: { email: 'a@example.test' },
      });
      expect(withOrigin.status).toBe(202);
      expect(withOrigin.headers['access-control-allow-origin']).toBe(SIGNUP_SITE);
      expect(withOrigin.headers['access-control-allow-credentials']).toBe('true');
      expect(withOrigin.headers.vary).toBe('Origin');
      const without = await send(`${app.url}/v1/waitlist`, {
        method: 'POST',
        body: { email: 'a@example.test' },
      });
      expect(without.headers.vary).toBeUndefined();
    });
  });

  describe('CSRF of unauthenticated /v1/auth writes (5.2.4)', () => {
    it('refuses a present Origin that is not allowed with 403 csrf_rejected', async () => {
      const answer = await send(`${app.url}/v1/auth/probe`, {
        method: 'POST',
        headers: { origin: 'https://evil.example' },
      });
      expect(answer.status).toBe(403);
      expect(problemOf(answer).code).toBe('csrf_rejected');
    });

    it('accepts an allowed origin and requests without Origin', async () => {
      expect(
        (await send(`${app.url}/v1/auth/probe`, { method: 'POST', headers: { origin: DASHBOARD } })).status,
      ).toBe(202);
      expect((await send(`${app.url}/v1/auth/probe`, { method: 'POST' })).status).toBe(202);
    });
  });

  describe('pagination (4.1.4, 8)', () => {
    it('walks every row once in stable order with the default page size of 50', async () => {
      const seen: number[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = cursor === null ? '' : `?cursor=${encodeURIComponent(cursor)}`;
        const answer = await send(`${app.url}/v1/probe/items${query}`);
        expect(answer.status).toBe(200);
        const page = answer.json as { items: { id: number }[]; next_cursor: string | null };
        seen.push(...page.items.map((item) => item.id));
        cursor = page.next_cursor;
        pages += 1;
      } while (cursor !== null);
      expect(pages).toBe(3);
      expect(seen).toEqual(Array.from({ length: 120 }, (_, index) => index + 1));
    });

    it.each(['0', '201', 'ten', '2.5'])('refuses limit=%s with 422 naming limit', async (limit) => {
      const answer = await send(`${app.url}/v1/probe/items?limit=${limit}`);
      expect(answer.status).toBe(422);
      const problem = problemOf(answer);
      expect(problem.code).toBe('validation_failed');
      expect(problem.errors).toEqual([expect.objectContaining({ field: 'limit' })]);
    });

    it('refuses a modified cursor and one over 1024 characters with 400 invalid_cursor', async () => {
      const first = (await send(`${app.url}/v1/probe/items?limit=10`)).json as { next_cursor: string };
      const cursor = first.next_cursor;
      const flipped = `${cursor.slice(0, 3)}${cursor[3] === 'A' ? 'B' : 'A'}${cursor.slice(4)}`;
      for (const bad of [flipped, `${cursor}x`, 'x'.repeat(1025), 'garbage']) {
        const answer = await send(`${app.url}/v1/probe/items?cursor=${encodeURIComponent(bad)}`);
        expect(answer.status).toBe(400);
        expect(problemOf(answer).code).toBe('invalid_cursor');
      }
    });
  });

  describe('Idempotency-Key (4.1.5, 3, 7)', () => {
    const create = (key: string, body: object, headers: Record<string, string> = {}) =>
      send(`${app.url}/v1/probe/widgets`, {
        method: 'POST',
        headers: { 'idempotency-key': key, ...headers },
        body,
      });

    it('replays the first success with Idempotent-Replayed: true', async () => {
      const first = await create('key-replay', { name: 'a' });
      const again = await create('key-replay', { name: 'a' });
      expect(first.status).toBe(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json).toEqual(first.json);
      expect(again.headers.location).toBe(first.headers.location);
    });

    it('refuses the same key with a different request with 409 idempotency_key_reused', async () => {
      await create('key-reused', { name: 'a' });
      const answer = await create('key-reused', { name: 'b' });
      expect(answer.status).toBe(409);
      expect(problemOf(answer).code).toBe('idempotency_key_reused');
    });

    it('refuses a repeat while the first runs with 409 idempotency_in_progress and Retry-After', async () => {
      const slow = create('key-running', { name: 'a' }, { 'x-probe-delay-ms': '400' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const repeat = await create('key-running', { name: 'a' });
      expect(repeat.status).toBe(409);
      expect(problemOf(repeat)).toMatchObject({ code: 'idempotency_in_progress', retry_after: 1 });
      expect(repeat.headers['retry-after']).toBe('1');
      expect((await slow).status).toBe(201);
    });

    it('stores nothing when the first request fails, so the key can be used again', async () => {
      const failed = await create('key-failed', { name: 'a' }, { 'x-probe-fail': 'yes' });
      expect(failed.status).toBe(422);
      const retried = await create('key-failed', { name: 'a' });
      expect(retried.status).toBe(201);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
    });

    it('creates exactly once under concurrent repeats', async () => {
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          create('key-concurrent', { name: 'c' }, { 'x-probe-delay-ms': '50' }),
        ),
      );
      const created = answers.filter(
        (answer) => answer.status === 201 && answer.headers['idempotent-replayed'] === undefined,
      );
      expect(created).toHaveLength(1);
      for (const answer of answers.filter((candidate) => !created.includes(candidate))) {
        const outcome =
          answer.status === 409 ? problemOf(answer).code : answer.headers['idempotent-replayed'];
        expect(['idempotency_in_progress', 'true']).toContain(outcome);
      }
    });

    it.each([
      ['too long', 'k'.repeat(256)],
      ['with a space', 'two words'],
      ['non-ASCII', 'clé'],
      ['empty', ''],
    ])('refuses a key %s with 400 bad_idempotency_key', async (_case, key) => {
      const answer = await create(key, { name: 'a' });
      expect(answer.status).toBe(400);
      expect(problemOf(answer).code).toBe('bad_idempotency_key');
    });
  });

  describe('If-Match (4.1.3)', () => {
    it('writes with the current ETag, then refuses the stale one with 412 and refuses garbage with 400', async () => {
      const first = await send(`${app.url}/v1/probe/versioned`, { method: 'PUT', body: { value: 'a' } });
      expect(first.status).toBe(200);
      const etag = first.headers.etag ?? '';
      expect(etag).toMatch(/^"\d+"$/);
      const next = await send(`${app.url}/v1/probe/versioned`, {
        method: 'PUT',
        headers: { 'if-match': etag },
        body: { value: 'b' },
      });
      expect(next.status).toBe(200);
      const stale = await send(`${app.url}/v1/probe/versioned`, {
        method: 'PUT',
        headers: { 'if-match': etag },
        body: { value: 'c' },
      });
      expect(stale.status).toBe(412);
      expect(problemOf(stale).code).toBe('version_mismatch');
      const bad = await send(`${app.url}/v1/probe/versioned`, {
        method: 'PUT',
        headers: { 'if-match': 'W/"3"' },
        body: { value: 'd' },
      });
      expect(bad.status).toBe(400);
      expect(problemOf(bad).code).toBe('bad_if_match');
    });
  });

  describe('public endpoints (4.12)', () => {
    it('GET /v1/pops lists the catalogue sorted by id, cacheable for five minutes', async () => {
      const answer = await send(`${app.url}/v1/pops`);
      expect(answer.status).toBe(200);
      expect(answer.headers['cache-control']).toBe('public, max-age=300');
      const { pops } = answer.json as { pops: { id: string; status: string; country: string }[] };
      expect(pops.length).toBeGreaterThan(0);
      expect(pops.map((pop) => pop.id)).toEqual([...pops.map((pop) => pop.id)].sort());
      for (const pop of pops) {
        expect(['active', 'canary', 'planned']).toContain(pop.status);
        expect(pop.country).toMatch(/^[A-Z]{2}$/);
      }
    });

    it('GET /v1/meta states the API version and the GeoIP attribution', async () => {
      const meta = (await send(`${app.url}/v1/meta`)).json as Record<string, unknown>;
      expect(meta.api_version).toBe(API_VERSION);
      expect(meta).toHaveProperty('geoip_attribution');
    });

    it('GET /v1/capabilities names destinations_map and list_reports and why anything is unsupported', async () => {
      const capabilities = (await send(`${app.url}/v1/capabilities`)).json as {
        features: Record<string, { supported: boolean; reason?: string }>;
        settings: Record<string, Record<string, { supported: boolean; reason?: string }>>;
        account_deletion: { cooling_off_days: number };
      };
      expect(capabilities.features.list_reports?.supported).toBe(true);
      expect(capabilities.account_deletion).toEqual({ cooling_off_days: 14 });
      expect(capabilities.features.destinations_map).toEqual({
        supported: false,
        reason: expect.any(String),
      });
      expect(capabilities.settings['settings.log_region']?.eu).toEqual({
        supported: false,
        reason: expect.any(String),
      });
    });

    it('GET /v1/ip answers the caller address as the API sees it', async () => {
      expect((await send(`${app.url}/v1/ip`)).json).toEqual({ ip: '127.0.0.1', version: 4 });
    });
  });
});

describe('rate limiting of unauthenticated routes (4.1.8)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ env: { SVC_RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(async () => app.close());

  it('answers 429 rate_limited with Retry-After once the address is over its limit', async () => {
    const statuses = [];
    for (let index = 0; index < 3; index += 1) statuses.push((await send(`${app.url}/v1/meta`)).status);
    expect(statuses).toEqual([200, 200, 200]);
    const limited = await send(`${app.url}/v1/meta`);
    expect(limited.status).toBe(429);
    const problem = problemOf(limited);
    expect(problem.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(problem.retry_after).toBe(Number(limited.headers['retry-after']));
  });
});

describe('rate limiting of IPv6 clients by their /64 (issue 27)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ env: { SVC_RATE_LIMIT_PER_MINUTE: '3', SVC_TRUST_PROXY: 'loopback' } });
  });
  afterAll(async () => app.close());

  const from = (address: string) => send(`${app.url}/v1/meta`, { headers: { 'x-forwarded-for': address } });

  it('counts every address of a /64 as one client: a fresh address per request does not escape the limit', async () => {
    const statuses = [];
    for (const address of ['2001:db8:5:6::1', '2001:db8:5:6::2', '2001:db8:5:6:abcd:ef01:2345:6789']) {
      statuses.push((await from(address)).status);
    }
    expect(statuses).toEqual([200, 200, 200]);
    const limited = await from('2001:db8:5:6:ffff::1');
    expect(limited.status).toBe(429);
    expect(problemOf(limited).code).toBe('rate_limited');
    expect((await from('2001:db8:5:7::1')).status).toBe(200);
    expect((await from('198.51.100.1')).status).toBe(200);
  });
});

describe('outside development (5.6)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({
      env: { SVC_ENV: 'production', SVC_METRICS_TOKEN: 'conventions-metrics-token-0123' },
    });
  });
  afterAll(async () => app.close());

  it('sends Strict-Transport-Security because the session cookie is Secure', async () => {
    const answer = await send(`${app.url}/v1/meta`);
    expect(answer.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
  });
});
