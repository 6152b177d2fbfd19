import { createHash } from 'node:crypto';
import { ListArtifactStore } from '@svc/domain';
import { expect, it } from 'vitest';
import { send } from '../../support/http.js';
import { fixtureList, type ListPipelineFixture } from './list-pipeline.fixture.js';

/** Compiling sources into content-addressed versions, conditional fetches, changes and failures (issue 29). */
export function listPipelineFetching(fx: ListPipelineFixture): void {
  const { sourceViews, builds } = fx;
  it('compiles the sources that answer into versioned lists, and records why the others failed', async () => {
    const report = await fx.pipeline.refresh({ lists: [1, 8, 20, 21] });
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
    const artifacts = await fx.api.container.getAsync<ListArtifactStore>(ListArtifactStore);
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
    const answer = await send(`${fx.api.url}/v1/lists`);
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
    const hits = fx.sources.hits('/stevenblack-unified');
    const report = await fx.pipeline.refresh({ lists: [1, 8] });
    expect(report.sources.find((source) => source.id === 'stevenblack-unified')).toMatchObject({
      status: 'not_modified',
      changed: false,
    });
    expect(report.sources.find((source) => source.id === 'adguard-dns-filter')?.status).toBe('not_modified');
    const asked = fx.sources.requests.filter((request) => request.path === '/stevenblack-unified').at(-1);
    expect(asked?.headers['if-none-match']).toBe('"hosts-1"');
    const adguard = fx.sources.requests.filter((request) => request.path === '/adguard-dns-filter').at(-1);
    expect(adguard?.headers['if-modified-since']).toBe('Wed, 25 Nov 2026 06:00:00 GMT');
    expect(fx.sources.hits('/stevenblack-unified')).toBe(hits + 1);
    expect(report.lists.find((list) => list.list_id === 1)).toMatchObject({ version: 1, created: false });
    expect((await sourceViews()).get('stevenblack-unified')?.last_fetch?.status).toBe('not_modified');
  });

  it('records a new version when the content changes, and list reports record it', async () => {
    fx.sources.route('/stevenblack-unified', {
      body: `${fixtureList('hosts.txt')}\n0.0.0.0 brand-new.example\n`,
      etag: '"hosts-2"',
    });
    const report = await fx.pipeline.refresh({ lists: [1] });
    expect(report.lists).toEqual([
      expect.objectContaining({ list_id: 1, version: 2, entries: 11, created: true }),
    ]);
    const profile = await send(`${fx.api.url}/v1/profiles`, {
      method: 'POST',
      headers: fx.owner.auth,
      body: {},
    });
    const profileId = (profile.json as { id: string }).id;
    const filed = await send(`${fx.api.url}/v1/profiles/${profileId}/list-reports`, {
      method: 'POST',
      headers: fx.owner.auth,
      body: { domain: 'brand-new.example', list_id: 1, kind: 'false_positive' },
    });
    expect(filed.status).toBe(202);
    const listed = await send(`${fx.api.url}/v1/profiles/${profileId}/list-reports`, {
      headers: fx.owner.auth,
    });
    expect((listed.json as { reports: { list_version: number | null }[] }).reports[0]?.list_version).toBe(2);
  });

  it('keeps the last good version of a source that starts failing, and shows the failure', async () => {
    const good = (await builds()).get(20);
    fx.sources.route('/stevenblack-gambling', { status: 500, body: 'upstream down' });
    const report = await fx.pipeline.refresh({ lists: [20] });
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
    fx.sources.route('/hagezi-gambling', { body: fixtureList('domains.txt'), bodyDelayMs: 60_000 });
    fx.sources.route('/stevenblack-gambling', { streamBytes: 5 * 1024 * 1024 });
    const report = await fx.pipeline.refresh({ lists: [20] });
    const byId = new Map(report.sources.map((source) => [source.id, source]));
    expect(byId.get('hagezi-gambling')?.error).toMatch(/in time/);
    expect(byId.get('stevenblack-gambling')?.error).toMatch(/larger than/);
    expect(report.lists).toEqual([expect.objectContaining({ list_id: 20, version: 1, created: false })]);
  }, 90_000);
}
