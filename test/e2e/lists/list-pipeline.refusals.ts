import { DomainError } from '@svc/domain';
import { expect, it } from 'vitest';
import { send } from '../../support/http.js';
import type { ListPipelineFixture } from './list-pipeline.fixture.js';

/** What the pipeline refuses: HTML, binaries, empty or shrunk lists, private redirects, members (issue 35). */
export function listPipelineRefusals(fx: ListPipelineFixture): void {
  const { sourceViews, builds } = fx;
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
    ((await send(`${fx.api.url}/v1/lists`)).json as { lists: CatalogueList[] }).lists.find(
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
      fx.sources.route('/stevenblack-unified', { body, etag: `"${etag}"` });
      const report = await fx.pipeline.refresh({ lists: [1] });
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
    expect(fx.sources.requests.at(-1)?.headers['if-none-match']).toBe('"hosts-2"');
    const accepted = await fx.pipeline.refresh({ lists: [1], allowShrink: true });
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
    const first = await fx.pipeline.importList(
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
    const profile = await send(`${fx.api.url}/v1/profiles`, {
      method: 'POST',
      headers: fx.owner.auth,
      body: {},
    });
    const profileId = (profile.json as { id: string }).id;
    const put = await send(`${fx.api.url}/v1/profiles/${profileId}/lists`, {
      method: 'PUT',
      headers: fx.owner.auth,
      body: { lists: [2] },
    });
    expect(put.status, put.text).toBe(200);
    const node = await send(`${fx.api.url}/v1/profiles/${profileId}/nodes`, {
      method: 'POST',
      headers: fx.owner.auth,
      body: { name: 'rack' },
    });
    const enrolment = await send(`${fx.api.url}/v1/nodes/enrol`, {
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
        (await send(`${fx.api.url}/v1/nodes/self/profile`, { headers: nodeAuth })).json as {
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
      const refused = await fx.pipeline.importList(2, body(content), 'domains').then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(DomainError);
      expect(refused).toMatchObject({ code: 'list_refused' });
      expect((refused as Error).message).toMatch(reason);
      expect((await builds()).get(2)).toEqual(build);
      expect(await served()).toBe(build?.sha256);
    }
    const html = await fx.pipeline
      .importList(2, body('<html><body>x</body></html>'), 'domains', { allowShrink: true })
      .catch((error: unknown) => error);
    expect(html).toMatchObject({ code: 'list_refused' });
    const shrunk = await fx.pipeline.importList(2, body('one.import.example\n'), 'domains', {
      allowShrink: true,
    });
    expect(shrunk).toMatchObject({ version: first.version + 1, entries: 1, created: true });
    expect(await catalogueList(2)).toMatchObject({ version: first.version + 1, entries: 1 });
  });

  it('refuses a source redirecting to a private address, and shows why as its last fetch (issue 35)', async () => {
    const good = (await builds()).get(1);
    const port = new URL(fx.sources.url).port;
    for (const [location, reason] of [
      ['https://10.0.0.1/hosts', /10\.0\.0\.1 is a private address/],
      [`https://localhost:${port}/hosts`, /localhost resolves to .*, a loopback address/],
      ['/hosts', /http:\/\/ is refused/],
    ] as const) {
      fx.sources.route('/stevenblack-unified', { redirectTo: location });
      const report = await fx.pipeline.refresh({ lists: [1] });
      expect(report.sources[0]).toMatchObject({ status: 'failed', changed: false });
      expect(report.sources[0]?.error).toMatch(reason);
      expect((await sourceViews()).get('stevenblack-unified')?.last_fetch?.error).toMatch(reason);
      expect((await catalogueList(1))?.sources[0]?.last_fetch?.error).toMatch(reason);
      expect((await builds()).get(1)).toEqual(good);
    }
  });

  it('refuses the admin views to a member without the admin scope', async () => {
    expect((await send(`${fx.api.url}/v1/admin/lists/sources`, { headers: fx.owner.auth })).status).toBe(403);
    expect((await send(`${fx.api.url}/v1/admin/lists/versions`)).status).toBe(401);
  });
}
