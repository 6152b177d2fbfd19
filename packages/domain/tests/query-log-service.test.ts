import { HmacKeyedHash } from '@svc/adapters';
import {
  type AnalyticsQuery,
  CursorSealer,
  type DeviceRecord,
  LogCursors,
  type LogQuery,
  type LogQueryRelay,
  LogQueryService,
  type NameCount,
  NoCountryLookup,
  notFound,
  ParentalSettings,
  type ProfileRecord,
  ProfileSettings,
  QueryBudget,
  QueryConcurrencyGate,
  type QueryLogReader,
  type QueryLogRow,
  type RelayedResult,
  SecuritySettings,
} from '@svc/domain';
import { describe, expect, it } from 'vitest';

const clock = { now: () => new Date('2026-11-23T04:00:00Z') };
const hash = new HmacKeyedHash('a-test-secret-of-sufficient-length-0123456789');

function profile(destination: 'cloud' | 'self-hosted' | 'none'): ProfileRecord {
  return {
    id: 'abc123',
    orgId: 'org',
    name: 'p',
    version: 1,
    security: SecuritySettings.parse({}),
    parental: ParentalSettings.parse({}),
    settings: ProfileSettings.parse({ log_destination: destination }),
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
}

/** A node that answers destinations as an older node would: without country and owner. */
class OldNodeRelay implements LogQueryRelay {
  asked: LogQuery[] = [];
  async answer(query: LogQuery): Promise<RelayedResult> {
    this.asked.push(query);
    return {
      shape: query.shape,
      source: 'node',
      node: '00000000-0000-4000-8000-000000000001',
      columns: [
        { name: 'ip', type: 'string' },
        { name: 'count', type: 'uint' },
      ],
      rows: [
        ['142.250.80.46', 4],
        ['10.0.0.1', 1],
      ],
      next_cursor: null,
      partial: false,
    };
  }
}

function service(destination: 'self-hosted' | 'none', relay: LogQueryRelay) {
  return new LogQueryService({
    profiles: { get: async () => profile(destination) },
    reader: null,
    relay,
    devices: { find: async () => null, list: async () => [] },
    countries: new NoCountryLookup(),
    cursors: new LogCursors(new CursorSealer(hash), (data) => hash.sha256(data)),
    budget: new QueryBudget(clock),
    gate: new QueryConcurrencyGate({ after: () => () => undefined }),
    clock,
  });
}

/** A columnar store holding hourly totals only: every other read is a mistake of the test. */
class TotalsOnlyReader implements QueryLogReader {
  reads = 0;
  async statusCounts() {
    this.reads += 1;
    return [{ status: 'allowed' as const, count: 7 }];
  }
  async timeline() {
    this.reads += 1;
    return [];
  }
  private unexpected(): never {
    throw new Error('only hourly totals are read here');
  }
  rows = async () => this.unexpected();
  topNames = async (_query: AnalyticsQuery): Promise<NameCount[]> => this.unexpected();
  topDevices = async () => this.unexpected();
  topAnswerAddresses = async () => this.unexpected();
  decisions = async () => this.unexpected();
  nameAnswers = async () => this.unexpected();
  topPops = async () => this.unexpected();
}

function logRow(rowId: string, deviceId: string): QueryLogRow {
  return {
    profileId: 'abc123',
    ts: new Date('2026-11-23T03:00:00Z'),
    rowId,
    pop: 'yul',
    node: null,
    deviceId,
    deviceName: deviceId === '' ? '' : 'sent-name',
    clientIp: '192.0.2.1',
    transport: 'doh',
    qname: 'example.com',
    qtype: 1,
    status: 'allowed',
    reasonListId: null,
    reasonListName: '',
    reasonRule: '',
    operatorCode: '',
    rcode: 0,
    dnssecValidated: false,
    cacheHit: false,
    latencyUs: 1_000,
    answerIps: [],
  };
}

function device(id: string, displayName: string): DeviceRecord {
  return {
    profileId: 'abc123',
    id,
    name: 'sent-name',
    displayName,
    kind: 'tv',
    notes: '',
    identification: 'doh_path',
    transportLast: 'doh',
    firstSeen: clock.now(),
    lastSeen: clock.now(),
  };
}

/** A store whose row reads answer `answer` once the test releases them; it holds nothing else. */
class HeldRowsReader implements QueryLogReader {
  answer: QueryLogRow[] = [];
  /** Row reads begun. */
  reads = 0;
  private waiting: Array<() => void> = [];
  async rows(): Promise<QueryLogRow[]> {
    this.reads += 1;
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    return this.answer;
  }
  release(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
  }
  private unexpected(): never {
    throw new Error('only rows are read here');
  }
  statusCounts = async () => this.unexpected();
  timeline = async () => this.unexpected();
  topNames = async (_query: AnalyticsQuery): Promise<NameCount[]> => this.unexpected();
  topDevices = async () => this.unexpected();
  topAnswerAddresses = async () => this.unexpected();
  decisions = async () => this.unexpected();
  nameAnswers = async () => this.unexpected();
  topPops = async () => this.unexpected();
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Profile lookups that answer once the test releases them, with the destination (or 404) set by then. */
class HeldProfiles {
  destination: 'cloud' | 'none' = 'cloud';
  known = true;
  private waiting: Array<() => void> = [];
  get = async (): Promise<ProfileRecord> => {
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    if (!this.known) throw notFound('profile');
    return profile(this.destination);
  };
  release(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}

describe(LogQueryService.name, () => {
  it('reads the device registry while the store reads a page of rows, and for a tail polling after its cursor only once rows name a device', async () => {
    const reader = new HeldRowsReader();
    let registryReads = 0;
    const sut = new LogQueryService({
      profiles: { get: async () => profile('cloud') },
      reader,
      relay: new OldNodeRelay(),
      devices: {
        find: async () => null,
        list: async () => {
          registryReads += 1;
          return [device('tv', 'Den TV')];
        },
      },
      countries: new NoCountryLookup(),
      cursors: new LogCursors(new CursorSealer(hash), (data) => hash.sha256(data)),
      budget: new QueryBudget(clock),
      gate: new QueryConcurrencyGate({ after: () => () => undefined }),
      clock,
    });
    const deviceNames = (result: { columns: Array<{ name: string }>; rows: unknown[][] }) => {
      const at = result.columns.findIndex((column) => column.name === 'device_name');
      return result.rows.map((cells) => cells[at]);
    };

    reader.answer = [logRow('2', 'tv'), logRow('1', '')];
    const first = sut.logs('org', 'abc123', { mode: 'tail' });
    await tick();
    expect(registryReads).toBe(1);
    reader.release();
    const page = await first;
    expect(deviceNames(page)).toEqual(['Den TV', '']);

    reader.answer = [];
    const emptyPoll = sut.logs('org', 'abc123', { mode: 'tail', cursor: page.next_cursor ?? '' });
    await tick();
    reader.release();
    expect((await emptyPoll).rows).toEqual([]);
    expect(registryReads).toBe(1);

    reader.answer = [logRow('3', 'tv')];
    const poll = sut.logs('org', 'abc123', { mode: 'tail', cursor: page.next_cursor ?? '' });
    await tick();
    expect(registryReads).toBe(1);
    reader.release();
    expect(deviceNames(await poll)).toEqual(['Den TV']);
    expect(registryReads).toBe(2);

    reader.answer = [logRow('1', 'tv')];
    const search = sut.logs('org', 'abc123', { mode: 'search', qname: 'example' });
    await tick();
    expect(registryReads).toBe(3);
    reader.release();
    expect(deviceNames(await search)).toEqual(['Den TV']);
  });

  it('reads the store while the profile is looked up once the profile was last found with a cloud destination; the lookup still decides, and a discarded read gives its units back', async () => {
    const reader = new HeldRowsReader();
    const profiles = new HeldProfiles();
    const sut = new LogQueryService({
      profiles,
      reader,
      relay: new OldNodeRelay(),
      devices: { find: async () => null, list: async () => [] },
      countries: new NoCountryLookup(),
      cursors: new LogCursors(new CursorSealer(hash), (data) => hash.sha256(data)),
      // Four tails' worth, never refilled (the clock stands still).
      budget: new QueryBudget(clock, { capacity: 4, refillPerMinute: 1 }),
      gate: new QueryConcurrencyGate({ after: () => () => undefined }),
      clock,
    });
    reader.answer = [logRow('1', '')];
    const settle = async <T>(answer: Promise<T>): Promise<T> => {
      // Awaited by the caller once settled; a rejection meanwhile is not unhandled.
      answer.catch(() => undefined);
      await tick();
      profiles.release();
      await tick();
      reader.release();
      return answer;
    };

    // Never seen: the store waits for the profile.
    const first = sut.logs('org', 'abc123', { mode: 'tail' });
    await tick();
    expect(reader.reads).toBe(0);
    expect((await settle(first)).source).toBe('columnar');

    // Seen with cloud: the read starts before the profile answers.
    const second = sut.logs('org', 'abc123', { mode: 'tail' });
    await tick();
    expect(reader.reads).toBe(2);
    expect((await settle(second)).rows).toHaveLength(1);

    // The destination changed to none meanwhile: the read is discarded and its unit given back.
    profiles.destination = 'none';
    const third = sut.logs('org', 'abc123', { mode: 'tail' });
    await tick();
    expect(reader.reads).toBe(3);
    expect(await settle(third)).toMatchObject({ source: 'none', rows: [] });

    // Found with none: the next query waits for the profile again.
    profiles.destination = 'cloud';
    const fourth = sut.logs('org', 'abc123', { mode: 'tail' });
    await tick();
    expect(reader.reads).toBe(3);
    expect((await settle(fourth)).source).toBe('columnar');

    // A read begun for a profile that turns out gone is 404, its unit given back. Three of the four units are
    // spent by now (the third tail's came back): the next tail spends the last and the one after is 429.
    // Without either refund the budget would run out earlier.
    profiles.known = false;
    const gone = sut.logs('org', 'abc123', { mode: 'tail' });
    await tick();
    expect(reader.reads).toBe(5);
    await expect(settle(gone)).rejects.toMatchObject({ code: 'not_found' });
    profiles.known = true;
    expect((await settle(sut.logs('org', 'abc123', { mode: 'tail' }))).source).toBe('columnar');
    await expect(settle(sut.logs('org', 'abc123', { mode: 'tail' }))).rejects.toMatchObject({
      code: 'too_many_queries',
    });
  });

  it('answers counts from the hourly totals read alongside the profile lookup, and 404 with the units given back for another organisation’s profile', async () => {
    const reader = new TotalsOnlyReader();
    let known = true;
    const budget = new QueryBudget(clock, { capacity: 1, refillPerMinute: 1 });
    const sut = new LogQueryService({
      profiles: {
        get: async () => {
          if (!known) throw notFound('profile');
          return profile('none');
        },
      },
      reader,
      relay: new OldNodeRelay(),
      devices: { find: async () => null, list: async () => [] },
      countries: new NoCountryLookup(),
      cursors: new LogCursors(new CursorSealer(hash), (data) => hash.sha256(data)),
      budget,
      gate: new QueryConcurrencyGate({ after: () => () => undefined }),
      clock,
    });
    const parameters = { from: new Date('2026-11-23T01:00:00Z'), bucket: 3_600 };
    known = false;
    await expect(sut.analytics('org', 'abc123', 'counts_by_status', parameters)).rejects.toMatchObject({
      code: 'not_found',
    });
    known = true;
    const result = await sut.analytics('org', 'abc123', 'counts_by_status', parameters);
    expect(result.source).toBe('columnar');
    expect(result.rows).toEqual([
      ['allowed', 7],
      ['blocked', 0],
      ['rewritten', 0],
      ['error', 0],
    ]);
    expect(reader.reads).toBe(2);
    await expect(sut.analytics('org', 'abc123', 'counts_by_status', parameters)).rejects.toMatchObject({
      code: 'too_many_queries',
    });
  });

  it('relays a self-hosted profile’s query validated, and adds country and owner to an older node’s destinations', async () => {
    const relay = new OldNodeRelay();
    const sut = service('self-hosted', relay);
    const result = await sut.analytics('org', 'abc123', 'destinations', {
      bucket: 3_600,
      status: ['allowed'],
    });
    expect(relay.asked[0]).toMatchObject({ shape: 'destinations', profileId: 'abc123', limit: 100 });
    expect(result.columns.map((column) => column.name)).toEqual(['ip', 'count', 'country', 'owner']);
    expect(result.rows).toEqual([
      ['142.250.80.46', 4, '', 'google'],
      ['10.0.0.1', 1, '', ''],
    ]);
  });

  it('seals a node’s next position into next_cursor, which the next query hands back to the node', async () => {
    const asked: LogQuery[] = [];
    const relay: LogQueryRelay = {
      answer: async (query) => {
        asked.push(query);
        return {
          shape: query.shape,
          source: 'node',
          columns: [],
          rows: [],
          next_cursor: null,
          nextPosition: { ts: 1_795_000_000_000, rowId: '42' },
          partial: false,
        };
      },
    };
    const sut = service('self-hosted', relay);
    const first = await sut.logs('org', 'abc123', { mode: 'search', status: ['blocked'] });
    expect(first.next_cursor).toEqual(expect.any(String));
    await sut.logs('org', 'abc123', { mode: 'search', status: ['blocked'], cursor: first.next_cursor ?? '' });
    expect(asked[1]?.position).toEqual({ ts: 1_795_000_000_000, rowId: '42' });
    await expect(
      sut.logs('org', 'abc123', { mode: 'search', status: ['allowed'], cursor: first.next_cursor ?? '' }),
    ).rejects.toMatchObject({ code: 'invalid_cursor' });
  });

  it('destination none answers the shape’s columns with no rows', async () => {
    const sut = service('none', new OldNodeRelay());
    const result = await sut.analytics('org', 'abc123', 'top_reasons', { bucket: 3_600 });
    expect(result).toMatchObject({
      shape: 'top_reasons',
      source: 'none',
      rows: [],
      next_cursor: null,
      partial: false,
    });
    expect(result.columns.map((column) => column.name)).toEqual([
      'reason_code',
      'list_id',
      'reason',
      'count',
    ]);
  });

  it('an analytics cursor is 400 invalid_cursor: analytics answers have no pages', async () => {
    const sut = service('none', new OldNodeRelay());
    await expect(
      sut.analytics('org', 'abc123', 'top_domains', { bucket: 3_600, cursor: 'x' }),
    ).rejects.toMatchObject({
      code: 'invalid_cursor',
    });
  });
});
