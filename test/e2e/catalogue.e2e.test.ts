import {
  BLOCKLIST_CATALOGUE,
  BlocklistCatalogue,
  PARENTAL_CATEGORY_CATALOGUE,
  PARENTAL_SERVICES,
  ParentalCategoryCatalogue,
  ParentalServiceList,
} from '@svc/domain';
import { createTestApp, type TestApp } from '@svc/http-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemOf, send } from '../support/http.js';
import { probeRoutes } from '../support/probe-routes.js';

/** The fields of a parental service definition, exactly as spec 2.7 lists them. */
const SERVICE_FIELDS = [
  'categories',
  'domains',
  'evidence',
  'id',
  'list_id',
  'name',
  'notes',
  'sources',
  'toggle',
  'verified',
];
const SERVICE_SOURCE_FIELDS = [
  'attribution',
  'domain_count',
  'id',
  'included',
  'licence',
  'licence_url',
  'name',
  'needs_audit',
  'url',
];

describe('catalogues through HTTP (spec 4.7, 4.12; ROUTES.md)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp({ routes: [probeRoutes] });
  });
  afterAll(async () => app.close());

  async function servicesPage(query: string) {
    const answer = await send(`${app.url}/v1/parental/services${query}`);
    expect(answer.status, answer.text).toBe(200);
    return { answer, page: ParentalServiceList.parse(answer.json) };
  }

  describe('GET /v1/lists (4.12)', () => {
    it('answers the whole blocklist catalogue without credentials, sorted by id and cacheable', async () => {
      const answer = await send(`${app.url}/v1/lists`);
      expect(answer.status).toBe(200);
      expect(answer.headers['cache-control']).toBe('public, max-age=300');
      const catalogue = BlocklistCatalogue.parse(answer.json);
      // Before any compilation: the repository's catalogue, each source with no entries yet.
      expect(catalogue).toEqual({
        ...BLOCKLIST_CATALOGUE,
        lists: BLOCKLIST_CATALOGUE.lists.map((list) => ({
          ...list,
          toggle: list.toggle ?? '',
          entries: 0,
          sha256: null,
          built_at: null,
          sources: list.sources.map((source) => ({
            ...source,
            entries: 0,
            updated_at: new Date(BLOCKLIST_CATALOGUE.updated_at).toISOString(),
            last_fetch: null,
          })),
        })),
      });
      expect(Object.keys(answer.json as object).sort()).toEqual(['lists', 'updated_at', 'version']);
      const ids = catalogue.lists.map((list) => list.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    });

    it('gives each list its toggle, one credit per line and its sources with licence and size', async () => {
      const { lists } = BlocklistCatalogue.parse((await send(`${app.url}/v1/lists`)).json);
      const threatIntel = lists.filter((list) => list.toggle === 'security.threat_intel');
      expect(threatIntel.map((list) => list.name)).toContain('URLhaus malicious URL blocklist');
      // Spec 4.12: a list enabled by id has an empty toggle, a string, never null.
      const raw = (await send(`${app.url}/v1/lists`)).json as { lists: { toggle: unknown }[] };
      expect(raw.lists.some((list) => list.toggle === '')).toBe(true);
      expect(raw.lists.every((list) => typeof list.toggle === 'string')).toBe(true);
      const gambling = lists.find((list) => list.toggle === 'parental.categories:gambling');
      expect(gambling?.sources.length).toBeGreaterThan(1);
      expect(gambling?.attribution.split('\n')).toHaveLength(gambling?.sources.length ?? 0);
      for (const source of lists.flatMap((list) => list.sources)) {
        expect(source.licence).toMatch(/^(LicenseRef-|[A-Za-z0-9])/);
        expect(['hosts', 'domains', 'adblock']).toContain(source.format);
        expect(Number.isInteger(source.entries)).toBe(true);
      }
    });
  });

  describe('GET /v1/parental/categories (ROUTES.md)', () => {
    it('answers every category, sorted by list id and cacheable', async () => {
      const answer = await send(`${app.url}/v1/parental/categories`);
      expect(answer.status).toBe(200);
      expect(answer.headers['cache-control']).toBe('public, max-age=300');
      const catalogue = ParentalCategoryCatalogue.parse(answer.json);
      expect(catalogue).toEqual(PARENTAL_CATEGORY_CATALOGUE);
      expect(Object.keys(answer.json as object).sort()).toEqual(['categories', 'updated_at', 'version']);
      const listIds = catalogue.categories.map((category) => category.list_id);
      expect(listIds).toEqual([...listIds].sort((a, b) => a - b));
      expect(catalogue.categories.map((category) => category.id)).toEqual(
        expect.arrayContaining(['adult', 'gambling', 'social-networks']),
      );
    });
  });

  describe('GET /v1/parental/services (4.7, 2.7)', () => {
    it('answers the first 50 services in list id order with the envelope, cacheable', async () => {
      const { answer, page } = await servicesPage('');
      expect(answer.headers['cache-control']).toBe('public, max-age=300');
      expect(Object.keys(answer.json as object).sort()).toEqual([
        'available',
        'next_cursor',
        'services',
        'updated_at',
        'version',
      ]);
      expect(page.available).toBe(true);
      expect(page.version).toBeGreaterThanOrEqual(1);
      expect(page.services).toHaveLength(50);
      expect(page.next_cursor).not.toBeNull();
      expect(page.services).toEqual(PARENTAL_SERVICES.slice(0, 50));
      const listIds = page.services.map((service) => service.list_id);
      expect(listIds).toEqual([...listIds].sort((a, b) => a - b));
    });

    it('answers each service with exactly the fields of 2.7', async () => {
      const { answer } = await servicesPage('?limit=200');
      const raw = (answer.json as { services: Record<string, unknown>[] }).services;
      for (const service of raw) {
        expect(Object.keys(service).sort()).toEqual(SERVICE_FIELDS);
        for (const source of service.sources as Record<string, unknown>[])
          expect(Object.keys(source).sort()).toEqual(SERVICE_SOURCE_FIELDS);
      }
      const youtube = raw.find((service) => service.id === 'youtube');
      expect(youtube).toMatchObject({ toggle: 'service:youtube', evidence: 'desk' });
      expect(youtube?.domains).toEqual(
        expect.arrayContaining(['youtube.com', 'googlevideo.com', 'ytimg.com']),
      );
    });

    it('pages with limit 7 through every service exactly once, retired ones omitted', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = `?limit=7${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
        const { page } = await servicesPage(query);
        expect(page.services.length).toBeLessThanOrEqual(7);
        seen.push(...page.services.map((service) => service.id));
        cursor = page.next_cursor;
        pages += 1;
      } while (cursor !== null && pages < 100);
      expect(cursor).toBeNull();
      expect(pages).toBe(Math.ceil(PARENTAL_SERVICES.length / 7));
      expect(seen).toEqual(PARENTAL_SERVICES.map((service) => service.id));
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).not.toContain('skype');
    });

    it.each(['0', '201', 'ten'])(
      'refuses limit=%s with 422 validation_failed naming limit',
      async (limit) => {
        const answer = await send(`${app.url}/v1/parental/services?limit=${limit}`);
        expect(answer.status).toBe(422);
        const problem = problemOf(answer);
        expect(problem.code).toBe('validation_failed');
        expect(problem.errors).toEqual([expect.objectContaining({ field: 'limit' })]);
      },
    );

    it('refuses a modified, foreign or over-long cursor with 400 invalid_cursor', async () => {
      const { page } = await servicesPage('?limit=7');
      const cursor = page.next_cursor ?? '';
      const flipped = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`;
      const probe = (await send(`${app.url}/v1/probe/items?limit=5`)).json as { next_cursor: string };
      for (const bad of [flipped, `${cursor}x`, probe.next_cursor, 'x'.repeat(1025)]) {
        const answer = await send(`${app.url}/v1/parental/services?cursor=${encodeURIComponent(bad)}`);
        expect(answer.status, bad).toBe(400);
        expect(problemOf(answer).code).toBe('invalid_cursor');
      }
    });
  });
});
