import { DeviceSightings, type EdgeLogWriter, type QueryLogRow } from '@svc/domain';
import type { SimulatedProfile } from '@svc/edge-simulator';
import { afterAll, beforeAll, expect } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { type RawAnswer, send } from '../../support/http.js';
import { edgeLogWriter, insertRows, insertTotals, simulatedRows, totalsOf } from './query-log.seed.js';

export const HOUR = 3_600_000;

export const DAY = 24 * HOUR;

export interface Result {
  shape: string;
  source: string;
  columns: { name: string; type: string }[];
  rows: unknown[][];
  next_cursor: string | null;
  partial: boolean;
}

export const LOG_COLUMNS = [
  ['ts', 'time'],
  ['source', 'string'],
  ['pop', 'string'],
  ['node', 'string'],
  ['profile_id', 'string'],
  ['device_id', 'string'],
  ['device_name', 'string'],
  ['client_ip', 'string'],
  ['transport', 'string'],
  ['qname', 'string'],
  ['qtype', 'uint'],
  ['status', 'string'],
  ['reason_list_id', 'uint'],
  ['reason_rule', 'string'],
  ['rcode', 'uint'],
  ['dnssec_validated', 'bool'],
  ['cache_hit', 'bool'],
  ['latency_us', 'uint'],
  ['answer_ips', 'unknown'],
  ['reason', 'string'],
  ['reason_code', 'string'],
  ['ede_code', 'uint'],
  ['ede_text', 'string'],
  ['decided_by', 'string'],
];

function simulatedProfile(id: string, destination: 'cloud' | 'none' | 'self-hosted'): SimulatedProfile {
  return {
    id,
    settings: {
      block_mode: 'nxdomain',
      logs_enabled: true,
      log_client_ip: true,
      log_domains: true,
      log_destination: destination,
      retention_days: 30,
    },
    rules: {
      deny: ['tiktok.com', '=ads.example'],
      allow: [],
      rewrites: [{ pattern: 'printer.home.arpa', answer: '192.168.1.20' }],
    },
    lists: [
      { id: 1, name: 'StevenBlack unified hosts' },
      { id: 2, name: 'Second list' },
    ],
    suspended: false,
  };
}

/** Column `name` of every row of a result. */
export function column(result: Result, name: string): unknown[] {
  const index = result.columns.findIndex((entry) => entry.name === name);
  if (index < 0) throw new Error(`no column ${name} in ${JSON.stringify(result.columns)}`);
  return result.rows.map((row) => row[index]);
}

/**
 * Starts the server on `storage` once for the suite and writes the simulated edge's rows (fixed seed) for three
 * profiles, one per log destination; the behaviours compute what they expect from `rows`.
 */
export function useQueryLogFixture(storage: HarnessStorage, options: { env?: Record<string, string> } = {}) {
  let api: ApiHarness;
  let owner: TestAccount;
  let stranger: TestAccount;
  let writer: EdgeLogWriter;
  let profileId: string;
  let noneId: string;
  let selfHostedId: string;
  let rows: QueryLogRow[];
  let devices: { id: string; name: string }[];
  let now: Date;
  const createProfile = async (account: TestAccount, destination?: string): Promise<string> => {
    const created = await send(`${api.url}/v1/profiles`, {
      method: 'POST',
      headers: account.auth,
      body: destination === undefined ? {} : { settings: { log_destination: destination } },
    });
    expect(created.status).toBe(201);
    return (created.json as { id: string }).id;
  };

  const get = (path: string, account: TestAccount = owner): Promise<RawAnswer> =>
    send(`${api.url}${path}`, { headers: account.auth });

  const ok = async (path: string, account: TestAccount = owner): Promise<Result> => {
    const answer = await get(path, account);
    if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}: ${answer.text}`);
    return answer.json as Result;
  };

  /** Query string with an explicit short range, so that the cost budget never gets in the way. */
  const recent = (extra = '') => `from=${now.getTime() - 3 * DAY}&to=${now.getTime()}${extra}`;

  beforeAll(async () => {
    api = await startApi(storage, options.env);
    owner = await createAccount(api);
    stranger = await createAccount(api);
    profileId = await createProfile(owner);
    noneId = await createProfile(owner, 'none');
    selfHostedId = await createProfile(owner, 'self-hosted');
    writer = await edgeLogWriter(api);
    now = api.clock.now();
    const simulated = simulatedRows(simulatedProfile(profileId, 'cloud'), {
      queries: 2_500,
      days: 2,
      devices: 4,
      seed: 7,
      now: new Date(now.getTime() - 60_000),
    });
    rows = simulated.rows;
    devices = simulated.devices;
    await insertRows(writer, rows);
    await insertTotals(writer, totalsOf(rows));
    const sightings = await api.container.getAsync<DeviceSightings>(DeviceSightings);
    await sightings.record(simulated.sightings);
    // Profiles keeping no rows in the cloud still have their hourly totals (spec 4.6 rule 1).
    const elsewhere = simulatedRows(simulatedProfile(noneId, 'cloud'), {
      queries: 300,
      days: 1,
      devices: 2,
      seed: 11,
      now: new Date(now.getTime() - 60_000),
    }).rows;
    await insertTotals(writer, totalsOf(elsewhere));
    await insertTotals(writer, totalsOf(elsewhere.map((row) => ({ ...row, profileId: selfHostedId }))));
  }, 120_000);

  afterAll(async () => {
    await api?.close();
  });
  return {
    get api(): ApiHarness {
      return api;
    },
    get owner(): TestAccount {
      return owner;
    },
    get stranger(): TestAccount {
      return stranger;
    },
    get writer(): EdgeLogWriter {
      return writer;
    },
    get profileId(): string {
      return profileId;
    },
    get noneId(): string {
      return noneId;
    },
    get selfHostedId(): string {
      return selfHostedId;
    },
    get rows(): QueryLogRow[] {
      return rows;
    },
    get devices(): { id: string; name: string }[] {
      return devices;
    },
    get now(): Date {
      return now;
    },
    createProfile,
    get,
    ok,
    recent,
  };
}

/** What every behaviour of the suite reads: the running server, its accounts and the helpers above. */
export type QueryLogFixture = ReturnType<typeof useQueryLogFixture>;
