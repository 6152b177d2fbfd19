import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { QueryParams } from '@clickhouse/client';
import {
  AnalyticsQueryParameters,
  type AnalyticsShape,
  CursorSealer,
  LogCursors,
  LogQueryParameters,
  type LogQueryRelay,
  LogQueryService,
  NoCountryLookup,
  ParentalSettings,
  type ProfileRecord,
  ProfileSettings,
  QueryBudget,
  QueryConcurrencyGate,
  SecuritySettings,
} from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClickHouseColumnarStore,
  ClickHouseQueryLogReader,
  ClickHouseReadPool,
  createColumnarStore,
  HmacKeyedHash,
} from '../src/index.js';

/**
 * The SQL the query planner has the ClickHouse reader run for each shape, committed under
 * `__snapshots__/query-log-sql/` so that a change of any query shows in review (STYLE: immich's generated
 * SQL). Run on embedded chdb, so each statement is also one the engine accepts; on an empty store, so a
 * tail shows its first newest-first window and the read of older times that finds nothing more. `vitest -u`
 * rewrites the files.
 */
const clock = { now: () => new Date('2026-11-23T04:00:00.000Z') };
const hash = new HmacKeyedHash('a-test-secret-of-sufficient-length-0123456789');
const PROFILE = 'abc123';
const FILTERS = {
  device: ['living-room-tv'],
  status: ['blocked' as const, 'error' as const],
  qtype: [1, 28],
  list: [1],
  client_ip: '2001:db8::1',
};

const profile: ProfileRecord = {
  id: PROFILE,
  orgId: 'org',
  name: 'p',
  version: 1,
  security: SecuritySettings.parse({}),
  parental: ParentalSettings.parse({}),
  settings: ProfileSettings.parse({ log_destination: 'cloud' }),
  rules: { deny: [], allow: [], rewrites: [] },
  lists: [],
  schedules: [],
  bedtime: null,
  scheduleAssignments: [],
  allowances: [],
  suspended: false,
  pausedUntil: null,
  createdAt: clock.now(),
  updatedAt: clock.now(),
};

const noRelay: LogQueryRelay = {
  answer: async () => {
    throw new Error('a cloud profile is never relayed');
  },
};

/** The statements run, each with its bound parameters, as one reviewable text. */
function sqlText(statements: readonly QueryParams[]): string {
  return statements
    .map((statement) => {
      const sql = statement.query
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line.length > 0)
        .join('\n');
      return `-- params: ${JSON.stringify(statement.query_params ?? {})}\n${sql};\n`;
    })
    .join('\n');
}

describe(ClickHouseQueryLogReader.name, () => {
  let dataDir: string;
  let store: ClickHouseColumnarStore;
  const recorded: QueryParams[] = [];
  let sut: LogQueryService;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-query-log-sql-'));
    store = await createColumnarStore({ dataDir });
    await store.migrate();
    const client = store.client;
    // Records every SELECT on its way to the engine, which still runs it.
    const recording = new Proxy(client, {
      get(target, property, receiver) {
        if (property === 'query')
          return (params: QueryParams) => {
            recorded.push(params);
            return target.query(params);
          };
        return Reflect.get(target, property, receiver);
      },
    });
    const reader = new ClickHouseQueryLogReader(async () => ClickHouseReadPool.of(recording), store.kind);
    sut = new LogQueryService({
      profiles: { get: async () => profile },
      reader,
      relay: noRelay,
      devices: { find: async () => null, list: async () => [] },
      countries: new NoCountryLookup(),
      cursors: new LogCursors(new CursorSealer(hash), (data) => hash.sha256(data)),
      budget: new QueryBudget(clock),
      gate: new QueryConcurrencyGate({ after: () => () => undefined }),
      clock,
    });
  }, 120_000);

  afterAll(async () => {
    await store?.close();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  async function statementsOf(run: () => Promise<unknown>): Promise<string> {
    recorded.length = 0;
    await run();
    return sqlText(recorded);
  }

  const logCases: [name: string, parameters: Record<string, unknown>][] = [
    ['tail', {}],
    ['tail-filtered', { ...FILTERS, qname: 'example.com' }],
    ['search', { mode: 'search', qname: 'netflix', from: '2026-11-01T00:00:00Z' }],
  ];
  it.each(logCases)('runs the committed SQL for logs %s', async (name, parameters) => {
    const text = await statementsOf(() => sut.logs('org', PROFILE, LogQueryParameters.parse(parameters)));
    await expect(text).toMatchFileSnapshot(`./__snapshots__/query-log-sql/logs-${name}.sql`);
  });

  const window = { from: '2026-10-24T04:00:00Z', to: '2026-11-23T04:00:00Z' };
  const analyticsCases: [name: string, shape: AnalyticsShape, parameters: Record<string, unknown>][] = [
    ['counts_by_status', 'counts_by_status', window],
    ['counts_by_status-filtered', 'counts_by_status', { ...window, ...FILTERS }],
    ['timeline', 'timeline', { ...window, bucket: 86_400 }],
    ['timeline-filtered', 'timeline', { ...window, ...FILTERS, bucket: 3_600 }],
    ['top_domains', 'top_domains', { ...window, limit: 10 }],
    ['top_blocked', 'top_blocked', window],
    ['top_devices', 'top_devices', window],
    ['destinations', 'destinations', window],
    ['top_reasons', 'top_reasons', window],
    ['top_owners', 'top_owners', window],
    ['top_pops', 'top_pops', window],
  ];
  it.each(analyticsCases)('runs the committed SQL for analytics %s', async (name, shape, parameters) => {
    const text = await statementsOf(() =>
      sut.analytics('org', PROFILE, shape, AnalyticsQueryParameters.parse(parameters)),
    );
    await expect(text).toMatchFileSnapshot(`./__snapshots__/query-log-sql/analytics-${name}.sql`);
  });
});
