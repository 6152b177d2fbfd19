import { MemoryListArtifactStore, MemoryListPipelineStore } from '@svc/adapters';
import {
  type BlocklistCatalogueRecord,
  type BlocklistRecord,
  ListPipelineService,
  type ListSourceFetcher,
  PARENTAL_SERVICES,
  SourceFetchError,
  type SourceFetchOutcome,
  type SourceValidators,
} from '@svc/domain';
import { ManualClock } from '@svc/testing/clock';
import { describe, expect, it } from 'vitest';

// The list pipeline on the memory stores, its sources served from memory: the fetch, compile and version
// steps as a refresh chains them, in milliseconds rather than through HTTP (test/e2e/lists/ covers that).

type Served = { body: string; etag: string } | { failure: SourceFetchError };

/** Sources answered from memory as an HTTP server would: a 304 when the etag sent is the current one. */
class ServedSources implements ListSourceFetcher {
  readonly served = new Map<string, Served>();
  readonly fetched: string[] = [];

  async fetch<T>(
    url: string,
    validators: SourceValidators,
    consume: (body: AsyncIterable<Uint8Array>) => Promise<T>,
  ): Promise<SourceFetchOutcome<T>> {
    this.fetched.push(url);
    const served = this.served.get(url);
    if (served === undefined) throw new SourceFetchError('http_status', 'HTTP 404', 404);
    if ('failure' in served) throw served.failure;
    if (validators.etag === served.etag) return { status: 'not_modified', httpStatus: 304 };
    const bytes = new TextEncoder().encode(served.body);
    async function* body() {
      yield bytes;
    }
    return {
      status: 'fetched',
      httpStatus: 200,
      validators: { etag: served.etag, lastModified: null },
      result: await consume(body()),
    };
  }
}

function list(id: number, sourceIds: string[]): BlocklistRecord {
  return {
    id,
    name: `List ${id}`,
    description: 'A list of the test catalogue.',
    toggle: null,
    attribution: '',
    version: 1,
    sources: sourceIds.map((sourceId) => ({
      id: sourceId,
      name: sourceId,
      url: `https://lists.example/${sourceId}.txt`,
      format: 'domains',
      licence: 'MIT',
      licence_url: 'https://lists.example/licence',
      attribution: '',
    })),
  };
}

/** Two lists sharing the source `shared`; list 9002 merges it with `extra`. */
const CATALOGUE: BlocklistCatalogueRecord = {
  lists: [list(9001, ['shared']), list(9002, ['shared', 'extra'])],
  version: 1,
  updated_at: '2026-11-01T00:00:00Z',
};
const LISTS = [9001, 9002];

function setUp() {
  const sources = new ServedSources();
  const store = new MemoryListPipelineStore();
  const clock = new ManualClock(new Date('2026-11-27T10:00:00Z'));
  const announced: number[][] = [];
  const sut = new ListPipelineService({
    fetcher: sources,
    artifacts: new MemoryListArtifactStore(),
    store,
    clock,
    holder: 'server-a',
    catalogue: CATALOGUE,
    announce: async (listIds) => {
      announced.push(listIds);
    },
  });
  const serve = (sourceId: string, served: Served) =>
    sources.served.set(`https://lists.example/${sourceId}.txt`, served);
  serve('shared', { body: 'ads.example\ntracker.example\nbeacon.example\n', etag: '"s1"' });
  serve('extra', { body: 'casino.example\nads.example\n', etag: '"e1"' });
  return { sut, sources, store, clock, announced, serve };
}

describe(ListPipelineService.name, () => {
  it('fetches a source shared by two lists once, merges a list of two sources, and announces both versions', async () => {
    const { sut, sources, announced } = setUp();
    const report = await sut.refresh({ lists: LISTS });
    expect(sources.fetched).toEqual(['https://lists.example/shared.txt', 'https://lists.example/extra.txt']);
    expect(report.sources).toEqual([
      { id: 'shared', status: 'ok', changed: true, entries: 3, invalid: 0, error: null },
      { id: 'extra', status: 'ok', changed: true, entries: 2, invalid: 0, error: null },
    ]);
    expect(
      report.lists.map(({ list_id, version, entries, created }) => ({ list_id, version, entries, created })),
    ).toEqual([
      { list_id: 9001, version: 1, entries: 3, created: true },
      { list_id: 9002, version: 1, entries: 4, created: true },
    ]);
    // A single source's artifact is the list's; a merged list has its own.
    const [single, merged] = report.lists;
    expect(single?.sha256).toBe((await sut.sourceStates()).get('shared')?.artifact?.sha256);
    expect(merged?.sha256).not.toBe(single?.sha256);
    expect(announced).toEqual([[9001, 9002]]);
  });

  it('asks again with the validators: a 304 keeps every version and announces nothing', async () => {
    const { sut, announced } = setUp();
    await sut.refresh({ lists: LISTS });
    const again = await sut.refresh({ lists: LISTS });
    expect(again.sources.map(({ id, status, changed }) => ({ id, status, changed }))).toEqual([
      { id: 'shared', status: 'not_modified', changed: false },
      { id: 'extra', status: 'not_modified', changed: false },
    ]);
    expect(again.lists.map(({ list_id, version, created }) => ({ list_id, version, created }))).toEqual([
      { list_id: 9001, version: 1, created: false },
      { list_id: 9002, version: 1, created: false },
    ]);
    expect(announced).toHaveLength(1);
  });

  it('records a new version of only the lists a changed source feeds', async () => {
    const { sut, serve } = setUp();
    await sut.refresh({ lists: LISTS });
    serve('extra', { body: 'casino.example\nads.example\nslots.example\n', etag: '"e2"' });
    const report = await sut.refresh({ lists: LISTS });
    expect(
      report.lists.map(({ list_id, version, entries, created }) => ({ list_id, version, entries, created })),
    ).toEqual([
      { list_id: 9001, version: 1, entries: 3, created: false },
      { list_id: 9002, version: 2, entries: 5, created: true },
    ]);
  });

  it('keeps the last good artifact of a failing or refused source, and the lists their versions', async () => {
    const { sut, serve, clock } = setUp();
    const first = await sut.refresh({ lists: LISTS });
    clock.advance(60_000);
    serve('shared', { failure: new SourceFetchError('timeout', 'timed out after 30 s') });
    serve('extra', { body: '<!DOCTYPE html><html><body>Sign in</body></html>\n', etag: '"e2"' });
    const report = await sut.refresh({ lists: LISTS });
    expect(report.sources).toEqual([
      {
        id: 'shared',
        status: 'failed',
        changed: false,
        entries: 3,
        invalid: 0,
        error: 'timed out after 30 s',
      },
      expect.objectContaining({ id: 'extra', status: 'failed', changed: false, entries: 2 }),
    ]);
    expect(report.sources[1]?.error).toMatch(/^refused: .*; the last good version stays$/);
    expect(report.lists).toEqual(first.lists.map((outcome) => ({ ...outcome, created: false })));
    const states = await sut.sourceStates();
    expect(states.get('shared')).toMatchObject({ failures: 1, checkedAt: clock.now() });
    // A refusal is no good fetch: the validators stay those of the last good one.
    expect(states.get('extra')).toMatchObject({ failures: 1, validators: { etag: '"e1"' } });
  });

  it('answers skipped while another server holds the refresh, fetching nothing', async () => {
    const { sut, sources, store, clock } = setUp();
    await store.claimRefresh('server-b', clock.now(), new Date(clock.now().getTime() + 60_000));
    expect(await sut.refresh({ lists: LISTS })).toEqual({
      skipped: 'refresh_running',
      sources: [],
      lists: [],
    });
    expect(sources.fetched).toEqual([]);
  });

  it('records one version of a derived list while its inputs stay the same', async () => {
    const { sut } = setUp();
    const service = PARENTAL_SERVICES[0];
    if (service === undefined) throw new Error('the catalogue has parental services');
    const [compiled] = await sut.compileDerived([service.list_id]);
    expect(compiled).toMatchObject({ list_id: service.list_id, version: 1, created: true });
    expect(compiled?.entries).toBe(new Set(service.domains).size);
    expect(await sut.compileDerived([service.list_id])).toEqual([]);
    expect(await sut.currentVersion(service.list_id)).toBe(1);
  });
});
