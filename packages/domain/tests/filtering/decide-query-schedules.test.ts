import { describe, expect, it } from 'vitest';
import { loggedDecision, type Schedule } from '../../src/index.js';
import { decider, policyInputs, utc } from './policy-fixture.js';

const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const window = (start: string, end: string, days: Schedule['windows'][number]['days'] = [...weekdays]) => ({
  days,
  start,
  end,
});
const schedule = (name: string, ...windows: Schedule['windows']): Schedule => ({ name, windows });

// 2026-11-27 is a Friday; Berlin is at +01:00 then.
const FRIDAY_2159 = utc('2026-11-27T20:59:00Z');
const FRIDAY_2200 = utc('2026-11-27T21:00:00Z');
const SATURDAY_0659 = utc('2026-11-28T05:59:00Z');
const SATURDAY_0700 = utc('2026-11-28T06:00:00Z');
const SATURDAY_2200 = utc('2026-11-28T21:00:00Z');

describe('decideQuery: bedtime (issue 38)', () => {
  const night = schedule('night', window('22:00', '07:00', ['fri']));
  const bedtime = () => decider(policyInputs({ schedules: [night], bedtime: 'night' }));

  it('blocks everything but allow rules during the bedtime, with EDE 17 and the profile’s block mode', () => {
    const { decide } = bedtime();
    const blocked = decide('anything.example', FRIDAY_2200);
    expect(blocked).toMatchObject({
      action: 'block',
      reason: 'schedule',
      status: 'blocked',
      ede: 17,
      edeText: 'schedule:night',
      blockMode: 'nxdomain',
      decidedBy: 'schedule:night',
    });
    expect(loggedDecision(blocked)).toMatchObject({ rule: 'schedule:night', decidedBy: 'schedule:night' });
    expect(decide('printer.home', FRIDAY_2200).reason).toBe('schedule');
    expect(decide('allowed.example', FRIDAY_2200).reason).toBe('allow_rule');
    expect(decide('www.allowed.example', FRIDAY_2200).reason).toBe('allow_rule');
  });

  it('starts at its start (inclusive), crosses midnight, and ends at its end (exclusive), on its days only', () => {
    const { decide } = bedtime();
    expect(decide('news.example', FRIDAY_2200 - 1).reason).toBe('none');
    expect(decide('news.example', FRIDAY_2159).reason).toBe('none');
    expect(decide('news.example', FRIDAY_2200).reason).toBe('schedule');
    expect(decide('news.example', utc('2026-11-27T23:00:00Z')).reason).toBe('schedule');
    expect(decide('news.example', SATURDAY_0659).reason).toBe('schedule');
    expect(decide('news.example', SATURDAY_0700 - 1).reason).toBe('schedule');
    expect(decide('news.example', SATURDAY_0700).reason).toBe('none');
    expect(decide('news.example', SATURDAY_2200).reason).toBe('none');
  });

  it('re-reads a schedule when the time goes back (a clock set back, queries decided out of order)', () => {
    const { decide } = bedtime();
    expect(decide('news.example', SATURDAY_2200).reason).toBe('none');
    expect(decide('news.example', FRIDAY_2200).reason).toBe('schedule');
    expect(decide('news.example', FRIDAY_2159).reason).toBe('none');
    expect(decide('news.example', SATURDAY_0659).reason).toBe('schedule');
  });

  it('is never active for a query without a time, and operator blocks still come first', () => {
    const { decide } = bedtime();
    expect(decide('news.example').reason).toBe('none');
    expect(decide('ads.example').reason).toBe('list');
    expect(decide('forbidden.example', FRIDAY_2200).reason).toBe('operator_block');
  });

  it('gives way to a pause and to a domain allowance, not to a service allowance', () => {
    const until = new Date(SATURDAY_0700).toISOString();
    const paused = decider(policyInputs({ schedules: [night], bedtime: 'night', paused_until: until }));
    expect(paused.decide('news.example', FRIDAY_2200).reason).toBe('paused');
    const allowed = decider(
      policyInputs({
        schedules: [night],
        bedtime: 'night',
        allowances: [
          { domain: 'homework.example', service: null, until },
          { domain: null, service: 'youtube', until },
        ],
      }),
    );
    expect(allowed.decide('homework.example', FRIDAY_2200).reason).toBe('allowance');
    expect(allowed.decide('youtube.com', FRIDAY_2200).reason).toBe('schedule');
  });

  it('names a schedule the document does not have: never active', () => {
    const { decide } = decider(policyInputs({ schedules: [night], bedtime: 'gone' }));
    expect(decide('news.example', FRIDAY_2200).reason).toBe('none');
  });
});

describe('decideQuery: schedule assignments (issue 38)', () => {
  const evening = schedule('evening', window('18:00', '20:00'));
  // 2026-11-27 19:00 and 21:00 in Berlin.
  const IN = utc('2026-11-27T18:00:00Z');
  const OUT = utc('2026-11-27T20:00:00Z');

  it('limits a parental service, category, enabled list or deny rule to its schedule (only_during)', () => {
    const { decide } = decider(
      policyInputs({
        schedules: [evening],
        schedule_assignments: [
          { target: { kind: 'service', id: 'youtube' }, schedule: 'evening', mode: 'only_during' },
          { target: { kind: 'category', id: 'games' }, schedule: 'evening', mode: 'only_during' },
          { target: { kind: 'list', id: 3 }, schedule: 'evening', mode: 'only_during' },
          { target: { kind: 'deny', pattern: 'social.example' }, schedule: 'evening', mode: 'only_during' },
        ],
      }),
    );
    for (const name of ['youtube.com', 'games.example', 'ads.example', 'social.example']) {
      expect(decide(name, IN)).toMatchObject({ action: 'block', decidedBy: 'schedule:evening' });
      expect(decide(name, OUT)).toMatchObject({ action: 'forward', reason: 'none' });
      expect(decide(name).action, `${name} without a time`).toBe('forward');
    }
    // Items without an assignment block at every time, with nothing but their reason.
    expect(decide('tiktok.com', OUT)).toMatchObject({ reason: 'parental', decidedBy: '' });
    expect(decide('denied.example', OUT)).toMatchObject({ reason: 'deny_rule', decidedBy: '' });
    expect(decide('malware.example', IN)).toMatchObject({ reason: 'security', decidedBy: '' });
  });

  it('lifts blocking during its schedule (lifted_during, "recreation time")', () => {
    const { decide } = decider(
      policyInputs({
        schedules: [evening],
        schedule_assignments: [
          { target: { kind: 'service', id: 'tiktok' }, schedule: 'evening', mode: 'lifted_during' },
          { target: { kind: 'deny', pattern: 'social.example' }, schedule: 'evening', mode: 'lifted_during' },
        ],
      }),
    );
    expect(decide('tiktok.com', IN).reason).toBe('none');
    expect(decide('tiktok.com', OUT)).toMatchObject({ reason: 'parental', decidedBy: 'schedule:evening' });
    expect(decide('tiktok.com')).toMatchObject({ reason: 'parental' });
    expect(decide('social.example', IN).reason).toBe('none');
    expect(decide('social.example', OUT)).toMatchObject({
      reason: 'deny_rule',
      decidedBy: 'schedule:evening',
    });
  });

  it('a lifted deny rule lets a list below it decide, and a later deny rule still blocks', () => {
    const { decide } = decider(
      policyInputs({
        rules: { deny: ['*.example', 'ads.example'], allow: [], rewrites: [] },
        schedules: [evening],
        schedule_assignments: [
          { target: { kind: 'deny', pattern: '*.example' }, schedule: 'evening', mode: 'lifted_during' },
        ],
      }),
    );
    expect(decide('ads.example', IN)).toMatchObject({ reason: 'deny_rule', rule: 'ads.example' });
    expect(decide('games.example', IN)).toMatchObject({ reason: 'parental' });
    expect(decide('news.example', IN).reason).toBe('none');
    expect(decide('news.example', OUT)).toMatchObject({ reason: 'deny_rule', rule: '*.example' });
  });

  it('adds no blocking: an assignment of something the profile does not block has no effect', () => {
    const { decide } = decider(
      policyInputs({
        schedules: [evening],
        schedule_assignments: [
          { target: { kind: 'service', id: 'netflix' }, schedule: 'evening', mode: 'only_during' },
          { target: { kind: 'deny', pattern: 'nowhere.example' }, schedule: 'evening', mode: 'only_during' },
        ],
      }),
    );
    expect(decide('netflix.com', IN).reason).toBe('none');
    expect(decide('nowhere.example', IN).reason).toBe('none');
  });
});

/** A decider with one schedule as the bedtime, to read when it is active through decisions. */
function bedtimeIn(zone: string, ...windows: Schedule['windows']) {
  const { decide } = decider(policyInputs({ schedules: [schedule('s', ...windows)], bedtime: 's' }, zone));
  return (at: string) => decide('news.example', utc(at)).reason === 'schedule';
}

describe('decideQuery: daylight-saving changes (ADR 0040)', () => {
  it('Europe/Berlin spring forward: a window from 02:30 starts at 03:00', () => {
    const active = bedtimeIn('Europe/Berlin', window('02:30', '04:00', ['sun']));
    expect(active('2026-03-29T00:59:00Z')).toBe(false); // 01:59 CET
    expect(active('2026-03-29T01:00:00Z')).toBe(true); // 03:00 CEST
    expect(active('2026-03-29T01:59:00Z')).toBe(true); // 03:59 CEST
    expect(active('2026-03-29T02:00:00Z')).toBe(false); // 04:00 CEST
  });

  it('Europe/Berlin fall back: the repeated hour is not counted twice', () => {
    const once = bedtimeIn('Europe/Berlin', window('02:00', '03:00', ['sun']));
    expect(once('2026-10-25T00:30:00Z')).toBe(true); // 02:30 CEST
    expect(once('2026-10-25T01:30:00Z')).toBe(false); // 02:30 CET, the second time
    const night = bedtimeIn('Europe/Berlin', window('22:00', '07:00', ['sat']));
    expect(night('2026-10-25T01:30:00Z')).toBe(true);
    expect(night('2026-10-25T05:59:00Z')).toBe(true); // 06:59 CET: the night is an hour longer
    expect(night('2026-10-25T06:00:00Z')).toBe(false);
  });

  it('America/New_York: 02:30 on the spring-forward day is 03:00; 01:00–02:00 runs once in autumn', () => {
    const spring = bedtimeIn('America/New_York', window('02:30', '03:30', ['sun']));
    expect(spring('2026-03-08T06:59:00Z')).toBe(false); // 01:59 EST
    expect(spring('2026-03-08T07:00:00Z')).toBe(true); // 03:00 EDT
    expect(spring('2026-03-08T07:30:00Z')).toBe(false); // 03:30 EDT
    const autumn = bedtimeIn('America/New_York', window('01:00', '02:00', ['sun']));
    expect(autumn('2026-11-01T05:30:00Z')).toBe(true); // 01:30 EDT
    expect(autumn('2026-11-01T06:30:00Z')).toBe(false); // 01:30 EST
  });

  it('Australia/Lord_Howe (half-hour shift): a window inside the skipped half hour does not run', () => {
    const skipped = bedtimeIn('Australia/Lord_Howe', window('02:00', '02:30', ['sun']));
    expect(skipped('2026-10-03T15:29:00Z')).toBe(false); // 01:59 +10:30
    expect(skipped('2026-10-03T15:30:00Z')).toBe(false); // 02:30 +11:00
    const late = bedtimeIn('Australia/Lord_Howe', window('02:15', '03:00', ['sun']));
    expect(late('2026-10-03T15:30:00Z')).toBe(true);
    expect(late('2026-10-03T15:59:00Z')).toBe(true);
    expect(late('2026-10-03T16:00:00Z')).toBe(false); // 03:00 +11:00
    const repeated = bedtimeIn('Australia/Lord_Howe', window('01:30', '02:00', ['sun']));
    expect(repeated('2026-04-04T14:45:00Z')).toBe(true); // 01:45 +11:00
    expect(repeated('2026-04-04T15:15:00Z')).toBe(false); // 01:45 +10:30, the second time
  });

  it('reads schedules in UTC when the edge’s zone database does not know the zone', () => {
    const active = bedtimeIn('Mars/Olympus_Mons', window('10:00', '11:00'));
    expect(active('2026-11-27T10:30:00Z')).toBe(true);
    expect(active('2026-11-27T11:30:00Z')).toBe(false);
  });
});
