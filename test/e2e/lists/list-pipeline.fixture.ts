import { readFileSync } from 'node:fs';
import type { ListPipelineService } from '@svc/domain';
import { ListPipelineServiceToken } from '@svc/http-server';
import { ListSourceServer } from '@svc/testing/list-source';
import { afterAll, beforeAll, expect } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { createOperator, type TestOperator } from '../admin/operator-fixture.js';

/** A real-format list from the domain's test fixtures, by file name. */
export const fixtureList = (name: string) =>
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
 * Starts the server on `storage` once for the suite, its list sources served by a local mirror
 * (SVC_LIST_MIRROR_URL) from real-format fixture lists, with an operator and an owner.
 */
export function useListPipelineFixture(storage: HarnessStorage) {
  let sources: ListSourceServer;
  let api: ApiHarness;
  let operator: TestOperator;
  let owner: TestAccount;
  let pipeline: ListPipelineService;

  beforeAll(async () => {
    sources = await ListSourceServer.start();
    sources.route('/stevenblack-unified', { body: fixtureList('hosts.txt'), etag: '"hosts-1"' });
    sources.route('/adguard-dns-filter', {
      body: fixtureList('adblock.txt'),
      lastModified: 'Wed, 25 Nov 2026 06:00:00 GMT',
    });
    sources.route('/hagezi-gambling', { body: fixtureList('domains.txt'), etag: '"gambling-1"' });
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

  return {
    get sources(): ListSourceServer {
      return sources;
    },
    get api(): ApiHarness {
      return api;
    },
    get operator(): TestOperator {
      return operator;
    },
    get owner(): TestAccount {
      return owner;
    },
    get pipeline(): ListPipelineService {
      return pipeline;
    },
    sourceViews,
    builds,
  };
}

/** What every behaviour of the suite reads: the running server, its accounts and the helpers above. */
export type ListPipelineFixture = ReturnType<typeof useListPipelineFixture>;
