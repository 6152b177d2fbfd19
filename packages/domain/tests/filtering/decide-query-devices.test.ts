import { describe, expect, it } from 'vitest';
import type { DocumentDevicePolicy, FilteringProfile } from '../../src/index.js';
import { decider, policyInputs, utc } from './policy-fixture.js';

const NOW = utc('2026-11-27T18:00:00Z'); // Friday 19:00 in Berlin
const LATER = utc('2026-11-27T20:00:00Z');
const evening = { name: 'evening', windows: [{ days: ['fri' as const], start: '18:00', end: '20:00' }] };

function household(devices: Record<string, DocumentDevicePolicy>, overrides: Partial<FilteringProfile> = {}) {
  return decider(policyInputs({ schedules: [evening], devices, ...overrides }));
}

describe('decideQuery: device overrides (issue 38)', () => {
  it('inherits everything the device does not set, and treats unknown or absent devices as the profile', () => {
    const { decide, context } = household({ tablet: {} });
    for (const device of [undefined, 'tablet', 'unknown', '__proto__', 'constructor']) {
      expect(decide('youtube.com', NOW, device).reason).toBe('parental');
      expect(decide('denied.example', NOW, device)).toMatchObject({ reason: 'deny_rule', decidedBy: '' });
      expect(decide('allowed.example', NOW, device).reason).toBe('allow_rule');
      expect(decide('roblox.com', NOW, device).reason, 'device-only lists').toBe('none');
    }
    expect(context.deviceViewCount).toBe(1);
  });

  it('adds the device’s deny and allow rules to the profile’s, decided by the device', () => {
    const { decide } = household({ phone: { rules: { deny: ['chat.example'], allow: ['youtube.com'] } } });
    expect(decide('chat.example', NOW, 'phone')).toMatchObject({
      reason: 'deny_rule',
      rule: 'chat.example',
      decidedBy: 'device:phone',
    });
    expect(decide('youtube.com', NOW, 'phone')).toMatchObject({
      reason: 'allow_rule',
      decidedBy: 'device:phone',
    });
    expect(decide('denied.example', NOW, 'phone')).toMatchObject({ reason: 'deny_rule', decidedBy: '' });
    expect(decide('chat.example', NOW).reason).toBe('none');
    expect(decide('youtube.com', NOW).reason).toBe('parental');
  });

  it('turns parental off, or replaces it with the device’s own services and categories', () => {
    const { decide } = household({
      tv: { parental: 'off' },
      kid: { parental: { services: ['roblox', 'youtube'], categories: [] } },
    });
    expect(decide('youtube.com', NOW, 'tv').reason).toBe('none');
    expect(decide('games.example', NOW, 'tv').reason).toBe('none');
    expect(decide('ads.example', NOW, 'tv').reason).toBe('list');
    expect(decide('malware.example', NOW, 'tv').reason).toBe('security');
    expect(decide('roblox.com', NOW, 'kid')).toMatchObject({ reason: 'parental', decidedBy: 'device:kid' });
    expect(decide('youtube.com', NOW, 'kid')).toMatchObject({ reason: 'parental', decidedBy: '' });
    expect(decide('tiktok.com', NOW, 'kid').reason).toBe('none');
    expect(decide('games.example', NOW, 'kid').reason).toBe('none');
  });

  it('has its own bedtime (or none) and its own assignments, replacing the profile’s', () => {
    const { decide } = household(
      {
        late: { bedtime: null },
        early: { bedtime: 'evening' },
        gamer: {
          assignments: [
            { target: { kind: 'category', id: 'games' }, schedule: 'evening', mode: 'lifted_during' },
          ],
        },
      },
      {
        bedtime: null,
        schedule_assignments: [
          { target: { kind: 'service', id: 'youtube' }, schedule: 'evening', mode: 'only_during' },
        ],
      },
    );
    expect(decide('news.example', NOW, 'early')).toMatchObject({
      reason: 'schedule',
      decidedBy: 'schedule:evening',
    });
    expect(decide('news.example', LATER, 'early').reason).toBe('none');
    expect(decide('news.example', NOW, 'late').reason).toBe('none');
    expect(decide('games.example', NOW, 'gamer').reason).toBe('none');
    expect(decide('games.example', LATER, 'gamer')).toMatchObject({
      reason: 'parental',
      decidedBy: 'schedule:evening',
    });
    // The profile's assignment is replaced for the gamer: YouTube blocks at any time there.
    expect(decide('youtube.com', LATER, 'gamer').reason).toBe('parental');
    expect(decide('youtube.com', LATER).reason).toBe('none');
    expect(decide('youtube.com', LATER, 'late').reason).toBe('none');
  });

  it('pauses the device alone; a profile pause pauses every device; operator blocks hold through both', () => {
    const until = new Date(LATER).toISOString();
    const { decide } = household({ phone: { paused_until: until } });
    expect(decide('ads.example', NOW, 'phone')).toMatchObject({ reason: 'paused', decidedBy: 'paused' });
    expect(decide('printer.home', NOW, 'phone').reason).toBe('rewrite');
    expect(decide('forbidden.example', NOW, 'phone').reason).toBe('operator_block');
    expect(decide('ads.example', LATER, 'phone').reason).toBe('list');
    expect(decide('ads.example', NOW).reason).toBe('list');
    const profilePaused = household(
      { phone: { rules: { deny: ['chat.example'], allow: [] } } },
      { paused_until: until },
    );
    expect(profilePaused.decide('chat.example', NOW, 'phone').reason).toBe('paused');
    expect(profilePaused.decide('forbidden.example', NOW, 'phone').reason).toBe('operator_block');
    expect(profilePaused.decide('chat.example', LATER, 'phone').reason).toBe('deny_rule');
  });

  it('builds a device’s view on its first query only: 1,000 devices cost nothing up front', () => {
    const devices: Record<string, DocumentDevicePolicy> = {};
    for (let index = 0; index < 1000; index += 1)
      devices[`d${index}`] = { rules: { deny: [`d${index}.example`], allow: [] } };
    const { decide, context } = household(devices);
    expect(context.deviceViewCount).toBe(0);
    expect(decide('d7.example', NOW, 'd7').decidedBy).toBe('device:d7');
    expect(decide('d7.example', NOW, 'd8').reason).toBe('none');
    expect(decide('d7.example', NOW, 'd7').decidedBy).toBe('device:d7');
    expect(context.deviceViewCount).toBe(2);
  });
});

describe('decideQuery: timed allowances (issue 38)', () => {
  const until = new Date(LATER).toISOString();

  it('allows a domain and its subdomains like an allow rule until the end (exclusive)', () => {
    const { decide } = household({}, { allowances: [{ domain: 'youtube.com', service: null, until }] });
    expect(decide('youtube.com', NOW)).toMatchObject({
      action: 'allow',
      reason: 'allowance',
      decidedBy: 'allowance',
    });
    expect(decide('m.youtube.com', LATER - 1).reason).toBe('allowance');
    expect(decide('youtube.com', LATER).reason).toBe('parental');
    expect(decide('youtube.com').reason, 'without a time nothing expires').toBe('allowance');
  });

  it('comes after allow rules and before deny rules; operator blocks and pauses come before it', () => {
    const { decide } = household(
      {},
      {
        allowances: [
          { domain: 'denied.example', service: null, until },
          { domain: 'allowed.example', service: null, until },
          { domain: 'forbidden.example', service: null, until },
        ],
      },
    );
    expect(decide('denied.example', NOW).reason).toBe('allowance');
    expect(decide('allowed.example', NOW).reason).toBe('allow_rule');
    expect(decide('forbidden.example', NOW).reason).toBe('operator_block');
  });

  it('unblocks a service’s list (and only it) until the end, for the profile and its devices', () => {
    const { decide } = household(
      { kid: { parental: { services: ['youtube'], categories: [] } } },
      {
        rules: { deny: ['denied.example'], allow: [], rewrites: [] },
        allowances: [{ domain: null, service: 'youtube', until }],
      },
    );
    expect(decide('youtube.com', NOW)).toMatchObject({ action: 'forward', reason: 'allowance' });
    expect(decide('youtube.com', NOW, 'kid').reason).toBe('allowance');
    expect(decide('tiktok.com', NOW).reason).toBe('parental');
    expect(decide('youtube.com', LATER).reason).toBe('parental');
  });

  it('ignores an unreadable end', () => {
    const { decide } = household(
      {},
      { allowances: [{ domain: 'youtube.com', service: null, until: 'soon' }] },
    );
    expect(decide('youtube.com', NOW).reason).toBe('parental');
  });
});
