import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DomainError, ListArtifactStore, type ListPipelineService } from '@svc/domain';
import { ListPipelineServiceToken } from '@svc/http-server';
import { ListSourceServer } from '@svc/testing/list-source';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { createOperator, type TestOperator } from '../admin/operator-fixture.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../packages/domain/tests/fixtures/lists/${name}`, import.meta.url), 'utf8');

interface SourceView {
  id: string;
  format: string;
  entries: number;
  invalid: number;
  ignored: number;
  sha256: string | null;
  invalid_samples: { line: number; text: string; reason: string }[];
  last_fetch: { status: string; http_status: number | null; error: string | null; failures: number } | null;
  last_good_at: string | null;
  updated_at: string;
}

interface BuildView {
  list_id: number;
  version: number;
  sha256: string;
  size_bytes: number;
  entries: number;
  exceptions: number;
  sources: string[];
}

/**
 * The list pipeline (issue 29) through a server whose sources come from a local mirror
 * (SVC_LIST_MIRROR_URL): real-format fixture lists compiled into content-addressed versions, shown by
 * GET /v1/lists, the admin sources and versions views and list reports; 304s, failures and changes.
 */
export function runListPipelineSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`the list pipeline on ${storage} (issue 29)`, () => {
    let sources: ListSourceServer;
    let api: ApiHarness;
    let operator: TestOperator;
    let owner: TestAccount;
    let pipeline: ListPipelineService;

    beforeAll(async () => {
      sources = await ListSourceServer.start();
      sources.route('/stevenblack-unified', { body: fixture('hosts.txt'), etag: '"hosts-1"' });
      sources.route('/adguard-dns-filter', {
        body: fixture('adblock.txt'),
        lastModified: 'Wed, 25 Nov 2026 06:00:00 GMT',
      });
      sources.route('/hagezi-gambling', { body: fixture('domains.txt'), etag: '"gambling-1"' });
      sources.route('/stevenblack-gambling', { body: '0.0.0.0 casino-fixture.example\n', etag: '"sb-1"' });
      api = await startApi(storage, {
        SVC_LIST_MIRROR_URL: sources.url,
        SVC_LIST_FETCH_TIMEOUT_SECONDS: '2',
        SVC_LIST_MAX_BYTES: String(1024 * 1024),
      });
      operator = await createOperator(api);
      owner = await createAccount(api);
      pipeline = await api.container.getAsync<ListPipelineService>(ListPipelineServiceToken);
    }, 120_000);
    afterAll(async () => {
      await api?.close();
      await sources?.close();
    });

    const sourceViews = async (): Promise<Map<string, SourceView>> => {
      const answer = await send(`${api.url}/v1/admin/lists/sources`, { headers: operator.admin });
      expect(answer.status).toBe(200);
      return new Map((answer.json as { sources: SourceView[] }).sources.map((source) => [source.id, source]));
    };
    const builds = async (): Promise<Map<number, BuildView>> => {
      const answer = await send(`${api.url}/v1/admin/lists/versions`, { headers: operator.admin });
      expect(answer.status).toBe(200);
      return new Map(
        (answer.json as { versions: BuildView[] }).versions.map((build) => [build.list_id, build]),
      );
    };

    it('compiles the sources that answer into versioned lists, and records why the others failed', async () => {
      const report = await pipeline.refresh({ lists: [1, 8, 20, 21] });
      expect(report.skipped).toBeUndefined();
      const byId = new Map(report.sources.map((source) => [source.id, source]));
      expect(byId.get('stevenblack-unified')).toMatchObject({
        status: 'ok',
        changed: true,
        entries: 10,
        invalid: 6,
      });
      expect(byId.get('oisd-nsfw')).toMatchObject({ status: 'failed', entries: null });

      const views = await sourceViews();
      const hosts = views.get('stevenblack-unified');
      expect(hosts).toMatchObject({
        format: 'hosts',
        entries: 10,
        invalid: 6,
        ignored: 14,
        last_fetch: { status: 'ok', http_status: 200, error: null, failures: 0 },
      });
      expect(hosts?.invalid_samples[0]).toMatchObject({ text: '0.0.0.0 bad..double-dot.example' });
      expect(views.get('oisd-nsfw')).toMatchObject({
        entries: 0,
        sha256: null,
        last_good_at: null,
        last_fetch: { status: 'failed', http_status: 404, failures: 1 },
      });
      expect(views.get('oisd-nsfw')?.last_fetch?.error).toMatch(/HTTP 404/);
      // A source of a list not refreshed was not fetched.
      expect(views.get('hagezi-pro')?.last_fetch).toBeNull();

      const built = await builds();
      expect([...built.keys()].sort((a, b) => a - b)).toEqual([1, 8, 20]);
      expect(built.get(1)).toMatchObject({
        version: 1,
        entries: 10,
        exceptions: 0,
        sources: ['stevenblack-unified'],
      });
      expect(built.get(8)).toMatchObject({ version: 1, entries: 6, exceptions: 2 });
      // Two sources merged into one list: the fixture domains and one more name.
      expect(built.get(20)).toMatchObject({
        version: 1,
        entries: 6,
        sources: ['hagezi-gambling', 'stevenblack-gambling'],
      });
    });

    it('stores each version content-addressed: its digest is the SHA-256 of the artifact', async () => {
      const build = (await builds()).get(1);
      const artifacts = await api.container.getAsync<ListArtifactStore>(ListArtifactStore);
      const bytes = await artifacts.read(build?.sha256 ?? '');
      expect(bytes).not.toBeNull();
      expect(
        createHash('sha256')
          .update(bytes ?? new Uint8Array())
          .digest('hex'),
      ).toBe(build?.sha256);
      expect(bytes?.length).toBe(build?.size_bytes);
      expect(Buffer.from(bytes ?? []).toString()).toContain('\n=ads.tracker-fixture.example\n');
    });

    it('shows real entries and versions in GET /v1/lists', async () => {
      const answer = await send(`${api.url}/v1/lists`);
      const lists = (
        answer.json as {
          lists: { id: number; version: number; sources: { id: string; entries: number }[] }[];
        }
      ).lists;
      const hosts = lists.find((list) => list.id === 1);
      expect(hosts?.version).toBe(1);
      expect(hosts?.sources).toEqual([expect.objectContaining({ id: 'stevenblack-unified', entries: 10 })]);
      expect(lists.find((list) => list.id === 2)?.sources[0]?.entries).toBe(0);
    });

    it('asks again conditionally: a 304 keeps the version', async () => {
      const hits = sources.hits('/stevenblack-unified');
      const report = await pipeline.refresh({ lists: [1, 8] });
      expect(report.sources.find((source) => source.id === 'stevenblack-unified')).toMatchObject({
        status: 'not_modified',
        changed: false,
      });
      expect(report.sources.find((source) => source.id === 'adguard-dns-filter')?.status).toBe(
        'not_modified',
      );
      const asked = sources.requests.filter((request) => request.path === '/stevenblack-unified').at(-1);
      expect(asked?.headers['if-none-match']).toBe('"hosts-1"');
      const adguard = sources.requests.filter((request) => request.path === '/adguard-dns-filter').at(-1);
      expect(adguard?.headers['if-modified-since']).toBe('Wed, 25 Nov 2026 06:00:00 GMT');
      expect(sources.hits('/stevenblack-unified')).toBe(hits + 1);
      expect(report.lists.find((list) => list.list_id === 1)).toMatchObject({ version: 1, created: false });
      expect((await sourceViews()).get('stevenblack-unified')?.last_fetch?.status).toBe('not_modified');
    });

    it('records a new version when the content changes, and list reports record it', async () => {
      sources.route('/stevenblack-unified', {
        body: `${fixture('hosts.txt')}\n0.0.0.0 brand-new.example\n`,
        etag: '"hosts-2"',
      });
      const report = await pipeline.refresh({ lists: [1] });
      expect(report.lists).toEqual([
        expect.objectContaining({ list_id: 1, version: 2, entries: 11, created: true }),
      ]);
      const profile = await send(`${api.url}/v1/profiles`, { method: 'POST', headers: owner.auth, body: {} });
      const profileId = (profile.json as { id: string }).id;
      const filed = await send(`${api.url}/v1/profiles/${profileId}/list-reports`, {
        method: 'POST',
        headers: owner.auth,
        body: { domain: 'brand-new.example', list_id: 1, kind: 'false_positive' },
      });
      expect(filed.status).toBe(202);
      const listed = await send(`${api.url}/v1/profiles/${profileId}/list-reports`, { headers: owner.auth });
      expect((listed.json as { reports: { list_version: number | null }[] }).reports[0]?.list_version).toBe(
        2,
      );
    });

    it('keeps the last good version of a source that starts failing, and shows the failure', async () => {
      const good = (await builds()).get(20);
      sources.route('/stevenblack-gambling', { status: 500, body: 'upstream down' });
      const report = await pipeline.refresh({ lists: [20] });
      expect(report.sources.find((source) => source.id === 'stevenblack-gambling')).toMatchObject({
        status: 'failed',
        changed: false,
        entries: 1,
      });
      const view = (await sourceViews()).get('stevenblack-gambling');
      expect(view).toMatchObject({
        entries: 1,
        last_fetch: { status: 'failed', http_status: 500, failures: 1 },
      });
      expect(view?.last_good_at).not.toBeNull();
      expect((await builds()).get(20)).toEqual(good);
    }, 60_000);

    it('reads a slow source as failed after the time-out, and a huge one as too large', async () => {
      sources.route('/hagezi-gambling', { body: fixture('domains.txt'), bodyDelayMs: 60_000 });
      sources.route('/stevenblack-gambling', { streamBytes: 5 * 1024 * 1024 });
      const report = await pipeline.refresh({ lists: [20] });
      const byId = new Map(report.sources.map((source) => [source.id, source]));
      expect(byId.get('hagezi-gambling')?.error).toMatch(/in time/);
      expect(byId.get('stevenblack-gambling')?.error).toMatch(/larger than/);
      expect(report.lists).toEqual([expect.objectContaining({ list_id: 20, version: 1, created: false })]);
    }, 90_000);

    interface CatalogueList {
      id: number;
      toggle: string;
      version: number;
      entries: number;
      sha256: string | null;
      built_at: string | null;
      sources: {
        id: string;
        last_fetch: { status: string; error: string | null; entries: number | null } | null;
      }[];
    }
    const catalogueList = async (id: number): Promise<CatalogueList | undefined> =>
      ((await send(`${api.url}/v1/lists`)).json as { lists: CatalogueList[] }).lists.find(
        (list) => list.id === id,
      );

    it('refuses a fetched HTML page, an empty body and a shrunk list: the last good version stays and says why (issue 35)', async () => {
      const good = (await builds()).get(1);
      expect(good?.entries).toBe(11);
      const cases: [string, string, RegExp][] = [
        ['html', '<!DOCTYPE html>\n<html><body>Service unavailable</body></html>\n', /HTML page, not a list/],
        ['empty', '# nothing here\n\n', /no valid entry/],
        ['shrunk', '0.0.0.0 one-left.example\n', /1 entries, less than half of the last good version's 11/],
      ];
      for (const [etag, body, reason] of cases) {
        sources.route('/stevenblack-unified', { body, etag: `"${etag}"` });
        const report = await pipeline.refresh({ lists: [1] });
        expect(report.sources[0]).toMatchObject({ id: 'stevenblack-unified', status: 'failed', entries: 11 });
        expect(report.sources[0]?.error).toMatch(reason);
        expect((await builds()).get(1)).toEqual(good);
        const view = (await sourceViews()).get('stevenblack-unified');
        expect(view).toMatchObject({ entries: 11, last_fetch: { status: 'failed', http_status: 200 } });
        expect(view?.last_fetch?.error).toMatch(reason);
        const listed = await catalogueList(1);
        expect(listed).toMatchObject({ version: 2, entries: 11, sha256: good?.sha256 });
        expect(listed?.sources[0]?.last_fetch).toMatchObject({ status: 'failed', entries: null });
        expect(listed?.sources[0]?.last_fetch?.error).toMatch(reason);
      }
      // Refused content leaves the validators: the next refresh asks for the whole body again.
      expect(sources.requests.at(-1)?.headers['if-none-match']).toBe('"hosts-2"');
      const accepted = await pipeline.refresh({ lists: [1], allowShrink: true });
      expect(accepted.lists).toEqual([
        expect.objectContaining({ list_id: 1, version: 3, entries: 1, created: true }),
      ]);
      expect((await catalogueList(1))?.sources[0]?.last_fetch).toEqual(
        expect.objectContaining({ status: 'ok', error: null, entries: 1 }),
      );
    });

    it('refuses an imported HTML page, binary file, empty or shrunk file, and GET /v1/lists shows the version in force (issue 35)', async () => {
      async function* body(text: string | Uint8Array): AsyncGenerator<Uint8Array> {
        yield typeof text === 'string' ? Buffer.from(text) : text;
      }
      const first = await pipeline.importList(
        2,
        body('one.import.example\ntwo.import.example\nthree.import.example\nfour.import.example\n'),
        'domains',
      );
      expect(first).toMatchObject({ list_id: 2, entries: 4, created: true });
      const listed = await catalogueList(2);
      const build = (await builds()).get(2);
      expect(listed).toMatchObject({
        version: first.version,
        entries: 4,
        sha256: build?.sha256,
        built_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        toggle: '',
      });
      // A node of a profile enabling list 2: its profile document names the version in force.
      const profile = await send(`${api.url}/v1/profiles`, { method: 'POST', headers: owner.auth, body: {} });
      const profileId = (profile.json as { id: string }).id;
      const put = await send(`${api.url}/v1/profiles/${profileId}/lists`, {
        method: 'PUT',
        headers: owner.auth,
        body: { lists: [2] },
      });
      expect(put.status, put.text).toBe(200);
      const node = await send(`${api.url}/v1/profiles/${profileId}/nodes`, {
        method: 'POST',
        headers: owner.auth,
        body: { name: 'rack' },
      });
      const enrolment = await send(`${api.url}/v1/nodes/enrol`, {
        method: 'POST',
        body: {
          enrolment_code: (node.json as { enrolment_code: string }).enrolment_code,
          version: '1.0.0',
          shapes: ['tail'],
        },
      });
      expect(enrolment.status, enrolment.text).toBe(201);
      const nodeAuth = { authorization: `Bearer ${(enrolment.json as { node_token: string }).node_token}` };
      const served = async () =>
        (
          (await send(`${api.url}/v1/nodes/self/profile`, { headers: nodeAuth })).json as {
            lists: { artifacts: { list_id: number; sha256: string }[] };
          }
        ).lists.artifacts.find((artifact) => artifact.list_id === 2)?.sha256;
      expect(await served()).toBe(build?.sha256);
      const refusals: [string | Uint8Array, RegExp][] = [
        ['<html>\n<head><title>502 Bad Gateway</title></head>\n</html>\n', /HTML page, not a list/],
        ['\uFEFF  <!doctype html><p>one.import.example</p>', /HTML page, not a list/],
        [new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]), /the file is binary/],
        [new Uint8Array([0xff, 0xfe, 0x41, 0x42, 0xc3, 0x28, 0x61, 0x62]), /the file is binary/],
        ['', /no valid entry/],
        ['one.import.example\n', /less than half/],
      ];
      for (const [content, reason] of refusals) {
        const refused = await pipeline.importList(2, body(content), 'domains').then(
          () => null,
          (error: unknown) => error,
        );
        expect(refused).toBeInstanceOf(DomainError);
        expect(refused).toMatchObject({ code: 'list_refused' });
        expect((refused as Error).message).toMatch(reason);
        expect((await builds()).get(2)).toEqual(build);
        expect(await served()).toBe(build?.sha256);
      }
      const html = await pipeline
        .importList(2, body('<html><body>x</body></html>'), 'domains', { allowShrink: true })
        .catch((error: unknown) => error);
      expect(html).toMatchObject({ code: 'list_refused' });
      const shrunk = await pipeline.importList(2, body('one.import.example\n'), 'domains', {
        allowShrink: true,
      });
      expect(shrunk).toMatchObject({ version: first.version + 1, entries: 1, created: true });
      expect(await catalogueList(2)).toMatchObject({ version: first.version + 1, entries: 1 });
    });

    it('refuses a source redirecting to a private address, and shows why as its last fetch (issue 35)', async () => {
      const good = (await builds()).get(1);
      const port = new URL(sources.url).port;
      for (const [location, reason] of [
        ['https://10.0.0.1/hosts', /10\.0\.0\.1 is a private address/],
        [`https://localhost:${port}/hosts`, /localhost resolves to .*, a loopback address/],
        ['/hosts', /http:\/\/ is refused/],
      ] as const) {
        sources.route('/stevenblack-unified', { redirectTo: location });
        const report = await pipeline.refresh({ lists: [1] });
        expect(report.sources[0]).toMatchObject({ status: 'failed', changed: false });
        expect(report.sources[0]?.error).toMatch(reason);
        expect((await sourceViews()).get('stevenblack-unified')?.last_fetch?.error).toMatch(reason);
        expect((await catalogueList(1))?.sources[0]?.last_fetch?.error).toMatch(reason);
        expect((await builds()).get(1)).toEqual(good);
      }
    });

    it('refuses the admin views to a member without the admin scope', async () => {
      expect((await send(`${api.url}/v1/admin/lists/sources`, { headers: owner.auth })).status).toBe(403);
      expect((await send(`${api.url}/v1/admin/lists/versions`)).status).toBe(401);
    });
  });
}
