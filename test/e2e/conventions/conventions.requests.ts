import { API_VERSION } from '@svc/domain';
import { createTestApp, type TestApp } from '@svc/http-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemOf, send } from '../../support/http.js';
import type { ConventionsFixture } from './conventions.fixture.js';

/** How requests are taken: paging, Idempotency-Key, If-Match, and the public routes (spec 4.1, 4.12). */
export function conventionRequests(fx: ConventionsFixture): void {
  describe('pagination (4.1.4, 8)', () => {
    it('walks every row once in stable order with the default page size of 50', async () => {
      const seen: number[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = cursor === null ? '' : `?cursor=${encodeURIComponent(cursor)}`;
        const answer = await send(`${fx.app.url}/v1/probe/items${query}`);
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
      const answer = await send(`${fx.app.url}/v1/probe/items?limit=${limit}`);
      expect(answer.status).toBe(422);
      const problem = problemOf(answer);
      expect(problem.code).toBe('validation_failed');
      expect(problem.errors).toEqual([expect.objectContaining({ field: 'limit' })]);
    });

    it('refuses a modified cursor and one over 1024 characters with 400 invalid_cursor', async () => {
      const first = (await send(`${fx.app.url}/v1/probe/items?limit=10`)).json as { next_cursor: string };
      const cursor = first.next_cursor;
      const flipped = `${cursor.slice(0, 3)}${cursor[3] === 'A' ? 'B' : 'A'}${cursor.slice(4)}`;
      for (const bad of [flipped, `${cursor}x`, 'x'.repeat(1025), 'garbage']) {
        const answer = await send(`${fx.app.url}/v1/probe/items?cursor=${encodeURIComponent(bad)}`);
        expect(answer.status).toBe(400);
        expect(problemOf(answer).code).toBe('invalid_cursor');
      }
    });
  });

  describe('Idempotency-Key (4.1.5, 3, 7)', () => {
    const create = (key: string, body: object, headers: Record<string, string> = {}) =>
      send(`${fx.app.url}/v1/probe/widgets`, {
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
      const first = await send(`${fx.app.url}/v1/probe/versioned`, { method: 'PUT', body: { value: 'a' } });
      expect(first.status).toBe(200);
      const etag = first.headers.etag ?? '';
      expect(etag).toMatch(/^"\d+"$/);
      const next = await send(`${fx.app.url}/v1/probe/versioned`, {
        method: 'PUT',
        headers: { 'if-match': etag },
        body: { value: 'b' },
      });
      expect(next.status).toBe(200);
      const stale = await send(`${fx.app.url}/v1/probe/versioned`, {
        method: 'PUT',
        headers: { 'if-match': etag },
        body: { value: 'c' },
      });
      expect(stale.status).toBe(412);
      expect(problemOf(stale).code).toBe('version_mismatch');
      const bad = await send(`${fx.app.url}/v1/probe/versioned`, {
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
      const answer = await send(`${fx.app.url}/v1/pops`);
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
      const meta = (await send(`${fx.app.url}/v1/meta`)).json as Record<string, unknown>;
      expect(meta.api_version).toBe(API_VERSION);
      expect(meta).toHaveProperty('geoip_attribution');
    });

    it('GET /v1/capabilities names destinations_map and list_reports and why anything is unsupported', async () => {
      const capabilities = (await send(`${fx.app.url}/v1/capabilities`)).json as {
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
      expect((await send(`${fx.app.url}/v1/ip`)).json).toEqual({ ip: '127.0.0.1', version: 4 });
    });
  });
}

/** The conventions that depend on settings of their own: rate limits and production headers (4.1.8, 5.6). */
export function conventionsOfOtherSettings(): void {
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
}
