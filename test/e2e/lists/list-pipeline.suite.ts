import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ListArtifactStore, type ListPipelineService } from '@svc/domain';
import { ListPipelineServiceToken } from '@svc/http-server';
import { ListSourceServer } from '@svc/testing/list-source';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { createOperator, type TestOperator } from '../admin/operator-fixture.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/lists/${name}`, import.meta.url), 'utf8');

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

    it('refuses the admin views to a member without the admin scope', async () => {
      expect((await send(`${api.url}/v1/admin/lists/sources`, { headers: owner.auth })).status).toBe(403);
      expect((await send(`${api.url}/v1/admin/lists/versions`)).status).toBe(401);
    });
  });
}
