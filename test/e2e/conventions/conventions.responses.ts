import { API_VERSION } from '@svc/domain';
import { describe, expect, it } from 'vitest';
import { problemOf, send } from '../../support/http.js';
import { type ConventionsFixture, DASHBOARD, SIGNUP_SITE } from './conventions.fixture.js';

/** What every response carries: headers, problem documents, CORS, and CSRF refusals (spec 4.1, 5.6, 7). */
export function conventionResponses(fx: ConventionsFixture): void {
  describe('headers on every response (4.1.2, 5.6)', () => {
    it.each([
      ['a success', '/v1/meta', 200],
      ['an unknown route', '/v1/nothing-here', 404],
    ])('%s carries request id, API version and the security headers', async (_case, path, status) => {
      const answer = await send(`${fx.app.url}${path}`);
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
      const [first, second] = await Promise.all([
        send(`${fx.app.url}/v1/meta`),
        send(`${fx.app.url}/v1/meta`),
      ]);
      expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
    });
  });

  describe('problem documents (7, 2.12)', () => {
    it('answers an unknown route with 404 not_found quoting the request id', async () => {
      const answer = await send(`${fx.app.url}/v1/unknown`);
      const problem = problemOf(answer);
      expect(problem).toMatchObject({
        type: `${fx.app.url}/problems/not_found`,
        title: 'Not Found',
        status: 404,
        code: 'not_found',
        request_id: answer.headers['x-request-id'],
      });
      expect(typeof problem.detail).toBe('string');
    });

    it('answers a known path with another method with 405 and Allow', async () => {
      const answer = await send(`${fx.app.url}/v1/meta`, { method: 'DELETE' });
      expect(answer.status).toBe(405);
      expect(problemOf(answer).code).toBe('method_not_allowed');
      expect(answer.headers.allow).toBe('OPTIONS, GET');
    });

    it('routes a path under a known prefix like any other: 405 for another method, 404 for an unknown path, case and a trailing slash ignored', async () => {
      const put = await send(`${fx.app.url}/v1/profiles/abc123`, { method: 'PUT' });
      expect(put.status).toBe(405);
      expect(put.headers.allow).toBe('OPTIONS, GET, PATCH, DELETE');
      const unknown = await send(`${fx.app.url}/v1/profiles/abc123/unknown`);
      expect(unknown.status).toBe(404);
      expect(problemOf(unknown).code).toBe('not_found');
      // Routed to GET /v1/profiles/{id}, which wants a credential (a 404 would mean no route matched).
      const shouted = await send(`${fx.app.url}/V1/Profiles/abc123/`);
      expect(shouted.status).toBe(401);
      expect(problemOf(shouted).code).toBe('unauthenticated');
    });

    it('answers malformed JSON with 400 bad_request', async () => {
      const answer = await send(`${fx.app.url}/v1/probe/widgets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name": ',
      });
      expect(answer.status).toBe(400);
      expect(problemOf(answer).code).toBe('bad_request');
    });

    it('answers a body over the limit with 400 body_too_large', async () => {
      const answer = await send(`${fx.app.url}/v1/probe/widgets`, {
        method: 'POST',
        body: { name: 'x'.repeat(4096) },
      });
      expect(answer.status).toBe(400);
      expect(problemOf(answer).code).toBe('body_too_large');
    });

    it('answers a body that is not JSON with 415 unsupported_media_type', async () => {
      const answer = await send(`${fx.app.url}/v1/probe/widgets`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'name=x',
      });
      expect(answer.status).toBe(415);
      expect(problemOf(answer).code).toBe('unsupported_media_type');
    });

    it('answers invalid fields with 422 validation_failed naming dotted fields and allowed values', async () => {
      const answer = await send(`${fx.app.url}/v1/probe/widgets`, {
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
      const answer = await send(`${fx.app.url}/v1/probe/crash`);
      expect(answer.status).toBe(500);
      expect(problemOf(answer).code).toBe('internal');
      expect(answer.text).not.toContain('secret internal detail');
      expect(answer.text).not.toContain('app.js');
    });
  });

  describe('CORS (4.1.7)', () => {
    it('adds credentials and exposed headers for a dashboard origin, and varies on Origin', async () => {
      const answer = await send(`${fx.app.url}/v1/meta`, { headers: { origin: DASHBOARD } });
      expect(answer.headers['access-control-allow-origin']).toBe(DASHBOARD);
      expect(answer.headers['access-control-allow-credentials']).toBe('true');
      expect(answer.headers['access-control-expose-headers']).toBe(
        'ETag, Retry-After, X-Request-Id, Content-Disposition, Location',
      );
      expect(answer.headers.vary).toContain('Origin');
    });

    it('adds no CORS headers for an origin that is not allowed', async () => {
      const answer = await send(`${fx.app.url}/v1/meta`, { headers: { origin: 'https://evil.example' } });
      expect(answer.status).toBe(200);
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
      expect(answer.headers.vary).toContain('Origin');
    });

    it('answers a dashboard preflight with 204 without authentication', async () => {
      const answer = await send(`${fx.app.url}/v1/probe/versioned`, {
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
      const answer = await send(`${fx.app.url}/v1/waitlist`, {
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
      const answer = await send(`${fx.app.url}/v1/waitlist`, { method: 'OPTIONS', headers });
      expect(answer.status).toBe(403);
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('names the origin on actual signup responses and varies only when Origin is present', async () => {
      const withOrigin = await send(`${fx.app.url}/v1/waitlist`, {
        method: 'POST',
        headers: { origin: SIGNUP_SITE },
        body: { email: 'a@example.test' },
      });
      expect(withOrigin.status).toBe(202);
      expect(withOrigin.headers['access-control-allow-origin']).toBe(SIGNUP_SITE);
      expect(withOrigin.headers['access-control-allow-credentials']).toBe('true');
      expect(withOrigin.headers.vary).toBe('Origin');
      const without = await send(`${fx.app.url}/v1/waitlist`, {
        method: 'POST',
        body: { email: 'a@example.test' },
      });
      expect(without.headers.vary).toBeUndefined();
    });
  });

  describe('CSRF of unauthenticated /v1/auth writes (5.2.4)', () => {
    it('refuses a present Origin that is not allowed with 403 csrf_rejected', async () => {
      const answer = await send(`${fx.app.url}/v1/auth/probe`, {
        method: 'POST',
        headers: { origin: 'https://evil.example' },
      });
      expect(answer.status).toBe(403);
      expect(problemOf(answer).code).toBe('csrf_rejected');
    });

    it('accepts an allowed origin and requests without Origin', async () => {
      expect(
        (await send(`${fx.app.url}/v1/auth/probe`, { method: 'POST', headers: { origin: DASHBOARD } }))
          .status,
      ).toBe(202);
      expect((await send(`${fx.app.url}/v1/auth/probe`, { method: 'POST' })).status).toBe(202);
    });
  });
}
