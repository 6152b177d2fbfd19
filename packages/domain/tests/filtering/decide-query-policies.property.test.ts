import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type DocumentAllowance,
  type DocumentDevicePolicy,
  type FilteringProfile,
  ruleMatches,
  type Schedule,
  type ScheduleAssignment,
} from '../../src/index.js';
import { decider, householdLists, policyInputs } from './policy-fixture.js';

/**
 * A plain reference of issue 38's semantics (docs/adr/0043), written without the context's indexes, gates
 * or caches: schedules are read minute by minute through Intl with the rule of ADR 0040 (a wall clock that
 * never goes back), and every step of the order is a direct test of the document.
 */
const MINUTE = 60_000;
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

const formats = new Map<string, Intl.DateTimeFormat>();
/** Wall clocks read, by zone and minute: the runs revisit the same hours around each change. */
const read = new Map<string, number>();
function wallClock(zone: string, at: number): number {
  const key = `${zone} ${at}`;
  const kept = read.get(key);
  if (kept !== undefined) return kept;
  const wall = readWallClock(zone, at);
  read.set(key, wall);
  return wall;
}

function readWallClock(zone: string, at: number): number {
  let format = formats.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formats.set(zone, format);
  }
  const part = (parts: Intl.DateTimeFormatPart[], type: string) =>
    Number(parts.find((entry) => entry.type === type)?.value);
  const parts = format.formatToParts(at);
  return Date.UTC(
    part(parts, 'year'),
    part(parts, 'month') - 1,
    part(parts, 'day'),
    part(parts, 'hour'),
    part(parts, 'minute'),
  );
}

/** The never-going-back wall clock: the latest wall time reached over the last three hours (each earlier minute ran to its end). */
function scheduleClock(zone: string, at: number): number {
  const minute = Math.floor(at / MINUTE) * MINUTE;
  let latest = wallClock(zone, minute);
  for (let back = 1; back <= 180; back += 1)
    latest = Math.max(latest, wallClock(zone, minute - back * MINUTE) + MINUTE);
  return latest;
}

function referenceActive(schedule: Schedule | undefined, zone: string, at: number | undefined): boolean {
  if (schedule === undefined || at === undefined) return false;
  const wall = new Date(scheduleClock(zone, at));
  const minute = wall.getUTCHours() * 60 + wall.getUTCMinutes();
  const today = DAYS[wall.getUTCDay()] as string;
  const yesterday = DAYS[(wall.getUTCDay() + 6) % 7] as string;
  const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3));
  return schedule.windows.some((window) => {
    const start = minutes(window.start);
    const end = minutes(window.end);
    const on = (day: string) => (window.days as readonly string[]).includes(day);
    if (end > start) return on(today) && minute >= start && minute < end;
    return (on(today) && minute >= start) || (on(yesterday) && minute < end);
  });
}

interface World {
  profile: FilteringProfile;
  device: string | undefined;
  name: string;
  at: number | undefined;
}

function referenceReason(world: World): string {
  const { profile, name, at } = world;
  const zone = profile.settings.time_zone as string;
  const covers = (patterns: readonly string[]) => patterns.some((pattern) => ruleMatches(pattern, name));
  const time = at ?? Number.NEGATIVE_INFINITY;
  if (name === 'forbidden.example') return 'operator_block';
  const policy: DocumentDevicePolicy =
    (world.device === undefined ? undefined : profile.devices?.[world.device]) ?? {};
  const active = (scheduleName: string) =>
    referenceActive(
      profile.schedules?.find((entry) => entry.name === scheduleName),
      zone,
      at,
    );
  const pauses = [profile.paused_until, policy.paused_until].filter((end) => typeof end === 'string');
  const rewrites = profile.rules.rewrites.map((rewrite) => rewrite.pattern);
  if (pauses.some((end) => time < Date.parse(end as string))) return covers(rewrites) ? 'rewrite' : 'paused';
  if (covers([...profile.rules.allow, ...(policy.rules?.allow ?? [])])) return 'allow_rule';
  const live = (profile.allowances ?? []).filter((entry) => time < Date.parse(entry.until));
  if (covers(live.flatMap((entry) => (entry.domain === null ? [] : [entry.domain])))) return 'allowance';
  const bedtime = policy.bedtime === undefined ? profile.bedtime : policy.bedtime;
  if (bedtime !== null && bedtime !== undefined && active(bedtime)) return 'schedule';
  const assignments = policy.assignments ?? profile.schedule_assignments ?? [];
  const blocksNow = (key: string) => {
    const assignment = assignments.find((entry) =>
      entry.target.kind === 'deny'
        ? `deny:${entry.target.pattern}` === key
        : `${entry.target.kind}:${entry.target.id}` === key,
    );
    if (assignment === undefined) return true;
    return active(assignment.schedule) === (assignment.mode === 'only_during');
  };
  for (const pattern of [...profile.rules.deny, ...(policy.rules?.deny ?? [])])
    if (ruleMatches(pattern, name) && blocksNow(`deny:${pattern}`)) return 'deny_rule';
  const parental = policy.parental;
  const own =
    parental === undefined || parental === 'off'
      ? []
      : [
          ...parental.services.map((id) => `service:${id}`),
          ...parental.categories.map((id) => `category:${id}`),
        ];
  const lists = householdLists()
    .filter((list) =>
      parental === undefined
        ? list.deviceOnly !== true
        : list.kind === 'parental'
          ? own.includes(list.ref as string)
          : list.deviceOnly !== true,
    )
    .sort(
      (a, b) =>
        ['list', 'parental', 'security'].indexOf(a.kind) - ['list', 'parental', 'security'].indexOf(b.kind) ||
        a.listId - b.listId,
    );
  let lifted = false;
  for (const list of lists) {
    if (!HOUSEHOLD_NAMES[list.listId]?.includes(name)) continue;
    const allowed = live.some((entry) => entry.service !== null && `service:${entry.service}` === list.ref);
    if (!allowed && blocksNow(list.kind === 'list' ? `list:${list.listId}` : (list.ref as string)))
      return list.kind;
    if (allowed) lifted = true;
  }
  if (covers(rewrites)) return 'rewrite';
  return lifted ? 'allowance' : 'none';
}

/** The names of householdLists() by list id. */
const HOUSEHOLD_NAMES: Record<number, string[]> = {
  3: ['ads.example'],
  901: ['youtube.com'],
  902: ['tiktok.com'],
  950: ['games.example'],
  990: ['malware.example'],
  903: ['roblox.com'],
};

const NAMES = [
  'youtube.com',
  'tiktok.com',
  'games.example',
  'ads.example',
  'malware.example',
  'roblox.com',
  'denied.example',
  'social.example',
  'news.example',
  'printer.home',
  'forbidden.example',
  'x.social.example',
];
const PATTERNS = [
  'denied.example',
  'social.example',
  '=social.example',
  '*.social.example',
  'youtube.com',
  'news.example',
];
const TIMES = [
  '00:00',
  '01:00',
  '01:30',
  '02:00',
  '02:15',
  '02:30',
  '03:00',
  '07:00',
  '12:00',
  '22:00',
  '23:30',
];
const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe'];
/** Around the 2026 changes of the three zones, and an ordinary week. */
const AROUND = [
  '2026-03-08T07:00:00Z',
  '2026-03-29T01:00:00Z',
  '2026-04-04T15:00:00Z',
  '2026-10-03T15:30:00Z',
  '2026-10-25T01:00:00Z',
  '2026-11-01T06:00:00Z',
  '2026-11-27T12:00:00Z',
].map(Date.parse);

const windowArb = fc.record({
  days: fc.subarray(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const, { minLength: 1 }),
  start: fc.constantFrom(...TIMES),
  end: fc.constantFrom(...TIMES),
});
const scheduleNames = fc.constantFrom('a', 'b', 'missing');
const assignmentArb: fc.Arbitrary<ScheduleAssignment> = fc.record({
  target: fc.oneof(
    fc.record({ kind: fc.constant('service' as const), id: fc.constantFrom('youtube', 'tiktok', 'roblox') }),
    fc.record({ kind: fc.constant('category' as const), id: fc.constant('games') }),
    fc.record({ kind: fc.constant('list' as const), id: fc.constant(3) }),
    fc.record({ kind: fc.constant('deny' as const), pattern: fc.constantFrom(...PATTERNS) }),
  ),
  schedule: scheduleNames,
  mode: fc.constantFrom('only_during' as const, 'lifted_during' as const),
});
const offset = fc.integer({ min: -180, max: 180 }).map((minutes) => minutes * MINUTE);
const endArb = (base: number) => offset.map((delta) => new Date(base + delta).toISOString());

function worldArb(base: number): fc.Arbitrary<World> {
  const allowanceArb: fc.Arbitrary<DocumentAllowance> = fc.oneof(
    fc.record({
      domain: fc.constantFrom(...PATTERNS, 'games.example'),
      service: fc.constant(null),
      until: endArb(base),
    }),
    fc.record({
      domain: fc.constant(null),
      service: fc.constantFrom('youtube', 'tiktok', 'roblox'),
      until: endArb(base),
    }),
  );
  const deviceArb: fc.Arbitrary<DocumentDevicePolicy> = fc.record(
    {
      rules: fc.record({ deny: fc.subarray(PATTERNS), allow: fc.subarray(PATTERNS, { maxLength: 1 }) }),
      parental: fc.oneof(
        fc.constant('off' as const),
        fc.record({ services: fc.subarray(['youtube', 'roblox']), categories: fc.subarray(['games']) }),
      ),
      bedtime: fc.option(scheduleNames, { nil: null }),
      assignments: fc.array(assignmentArb, { maxLength: 3 }),
      paused_until: fc.option(endArb(base), { nil: null }),
    },
    { requiredKeys: [] },
  );
  return fc.record({
    profile: fc.record({
      filtering: fc.constant(true),
      paused_until: fc.option(endArb(base), { nil: null, freq: 4 }),
      settings: fc.record({
        block_mode: fc.constant('nxdomain' as const),
        time_zone: fc.constantFrom(...ZONES),
      }),
      rules: fc.record({
        deny: fc.subarray(PATTERNS),
        allow: fc.subarray(PATTERNS, { maxLength: 1 }),
        rewrites: fc.constantFrom([{ pattern: 'printer.home', answer: '192.168.1.9' }]),
      }),
      schedules: fc
        .tuple(
          fc.array(windowArb, { minLength: 1, maxLength: 2 }),
          fc.array(windowArb, { minLength: 1, maxLength: 2 }),
        )
        .map(([a, b]): Schedule[] => [
          { name: 'a', windows: a },
          { name: 'b', windows: b },
        ]),
      bedtime: fc.option(scheduleNames, { nil: null, freq: 3 }),
      schedule_assignments: fc.uniqueArray(assignmentArb, {
        maxLength: 4,
        selector: (entry) => JSON.stringify(entry.target),
      }),
      allowances: fc.array(allowanceArb, { maxLength: 3 }),
      devices: fc.option(fc.record({ dev: deviceArb }), { nil: undefined }),
    }),
    device: fc.constantFrom(undefined, 'dev', 'other'),
    name: fc.constantFrom(...NAMES),
    at: fc.option(
      offset.map((delta) => base + delta + 17_000),
      { nil: undefined, freq: 8 },
    ),
  });
}

describe('decideQuery agrees with a plain reference of the schedules, allowances and devices', () => {
  it('for any policy, device, name and time around daylight-saving changes in three zones', () => {
    fc.assert(
      fc.property(fc.constantFrom(...AROUND).chain(worldArb), (world) => {
        const { decide } = decider(policyInputs(world.profile, world.profile.settings.time_zone));
        expect(decide(world.name, world.at, world.device).reason).toBe(referenceReason(world));
      }),
      { numRuns: 400 },
    );
  });

  it('decides a run of queries in time order as the reference decides each alone (the caches hold)', () => {
    fc.assert(
      fc.property(
        fc
          .constantFrom(...AROUND)
          .chain((base) =>
            fc.tuple(
              worldArb(base),
              fc.array(fc.tuple(offset, fc.constantFrom(...NAMES)), { minLength: 2, maxLength: 8 }),
            ),
          ),
        ([world, queries]) => {
          const { decide } = decider(policyInputs(world.profile, world.profile.settings.time_zone));
          const base = world.at ?? Date.parse('2026-11-27T12:00:00Z');
          for (const [delta, name] of [...queries].sort((a, b) => a[0] - b[0])) {
            const at = base + delta;
            expect(decide(name, at, world.device).reason).toBe(referenceReason({ ...world, name, at }));
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
