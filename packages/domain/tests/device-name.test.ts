import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DevicePatch,
  type DeviceSighting,
  deviceIdOf,
  deviceSightingSpans,
  patchedOverrides,
  sanitiseDeviceName,
} from '../src/index.js';

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');

describe(sanitiseDeviceName.name, () => {
  it.each([
    ['living-room-tv', 'living-room-tv'],
    ['  Living-Room-TV  ', 'living-room-tv'],
    ['Kids iPad', 'kids ipad'],
    ['Kids \t\n  iPad', 'kids ipad'],
    ['Jörg’s iPhone', 'jorgs iphone'],
    ['Ｔｖ', 'tv'],
    ['ÉCOLE', 'ecole'],
    ['office_pc.lan', 'office_pc.lan'],
    ['a--b__c..d', 'a--b__c..d'],
    ['📱 phone', 'phone'],
    ['phone 📱 2', 'phone 2'],
    ['tv!@#$%^&*()+=', 'tv'],
    ['', ''],
    ['   ', ''],
    ['📱', ''],
    ['\u0000nul\u0007', 'nul'],
  ])('%j → %j', (raw, sanitised) => {
    expect(sanitiseDeviceName(raw)).toBe(sanitised);
  });

  it('cuts to 64 characters, dropping a space left at the cut', () => {
    expect(sanitiseDeviceName('x'.repeat(100))).toBe('x'.repeat(64));
    expect(sanitiseDeviceName(`${'y'.repeat(63)} z`)).toBe('y'.repeat(63));
    expect(sanitiseDeviceName(`  ${'A'.repeat(70)}`)).toBe('a'.repeat(64));
  });

  it('keeps only a-z 0-9 . _ - and single inner spaces, and is idempotent', () => {
    const samples = [
      'Ünïcödé  Nâme',
      `${'Long name '.repeat(10)}`,
      '  --.__  ',
      'Mix3d_C4se.Name-1',
      '\u00a0nbsp\u2003em',
    ];
    for (const raw of samples) {
      const name = sanitiseDeviceName(raw);
      expect(name).toMatch(/^(?:[a-z0-9._-]+(?: [a-z0-9._-]+)*)?$/);
      expect(name.length).toBeLessThanOrEqual(64);
      expect(sanitiseDeviceName(name)).toBe(name);
    }
  });
});

describe(deviceIdOf.name, () => {
  it('uses a one-word name starting with a letter or digit as its own id', () => {
    expect(deviceIdOf('living-room-tv', sha256)).toBe('living-room-tv');
    expect(deviceIdOf('office_pc.lan', sha256)).toBe('office_pc.lan');
    expect(deviceIdOf('7', sha256)).toBe('7');
    expect(deviceIdOf('x'.repeat(64), sha256)).toBe('x'.repeat(64));
  });

  it('hashes empty names, names with spaces and names starting with . _ or -', () => {
    for (const name of ['', 'kids ipad', '.', '..', '_dmarc', '-tv']) {
      const id = deviceIdOf(name, sha256);
      expect(id).toMatch(/^~[0-9a-f]{24}$/);
      expect(id).toBe(`~${sha256(`svc-device-name:${name}`).slice(0, 24)}`);
      // Stable: the same name always gives the same id.
      expect(deviceIdOf(name, sha256)).toBe(id);
    }
    expect(deviceIdOf('kids ipad', sha256)).not.toBe(deviceIdOf('kids  ipad', sha256));
    expect(deviceIdOf('', sha256)).not.toBe(deviceIdOf('.', sha256));
  });

  it('never lets the two forms meet: a sanitised name cannot hold ~', () => {
    const hashed = deviceIdOf('kids ipad', sha256);
    expect(sanitiseDeviceName(hashed)).not.toBe(hashed);
    expect(deviceIdOf(sanitiseDeviceName(hashed), sha256)).not.toBe(hashed);
  });

  it('gives one id per sanitised name, however the client spelt it', () => {
    const ids = ['Kids iPad', 'kids ipad', '  KIDS   IPAD ', 'Kids\tiPad'].map((raw) =>
      deviceIdOf(sanitiseDeviceName(raw), sha256),
    );
    expect(new Set(ids).size).toBe(1);
  });
});

describe(deviceSightingSpans.name, () => {
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 5, 12, minute));
  const sighting = (overrides: Partial<DeviceSighting>): DeviceSighting => ({
    profileId: 'abc123',
    name: 'TV',
    identification: 'doh_path',
    transport: 'doh',
    seenAt: at(0),
    ...overrides,
  });

  it('merges one device’s sightings into one span: earliest first, latest last with its transport', () => {
    const spans = deviceSightingSpans(
      [
        sighting({ seenAt: at(5), transport: 'doh3' }),
        sighting({ name: ' tv ', seenAt: at(1), transport: 'dot', identification: 'sni' }),
        sighting({ seenAt: at(9), transport: 'doq', identification: 'sni' }),
        sighting({ seenAt: at(3), transport: 'doh' }),
      ],
      sha256,
    );
    expect(spans).toEqual([
      {
        profileId: 'abc123',
        id: 'tv',
        name: 'tv',
        identification: 'sni',
        transport: 'doq',
        firstSeenAt: at(1),
        lastSeenAt: at(9),
      },
    ]);
  });

  it('keeps devices and profiles apart, sorted by profile then id', () => {
    const spans = deviceSightingSpans(
      [
        sighting({ profileId: 'zzz999', name: 'b' }),
        sighting({ name: 'b' }),
        sighting({ name: 'a' }),
        sighting({ name: '', identification: 'unknown', transport: null }),
      ],
      sha256,
    );
    expect(spans.map((span) => `${span.profileId}/${span.id}`)).toEqual([
      'abc123/a',
      'abc123/b',
      `abc123/${deviceIdOf('', sha256)}`,
      'zzz999/b',
    ]);
  });

  it('refuses a sighting with an invalid time', () => {
    expect(() => deviceSightingSpans([sighting({ seenAt: new Date(Number.NaN) })], sha256)).toThrow(
      RangeError,
    );
  });
});

describe(patchedOverrides.name, () => {
  const current = { displayName: 'Old', kind: 'tv' as const, notes: 'some notes' };
  const patch = (body: unknown) => patchedOverrides(current, DevicePatch.parse(body));

  it('leaves absent fields unchanged (spec 4.3.1)', () => {
    expect(patch({})).toEqual(current);
    expect(patch({ kind: 'phone' })).toEqual({ ...current, kind: 'phone' });
  });

  it('clears display_name and notes with null or an empty string (spec 4.3.1)', () => {
    expect(patch({ display_name: null, notes: null })).toEqual({ displayName: null, kind: 'tv', notes: '' });
    expect(patch({ display_name: '', notes: '' })).toEqual({ displayName: null, kind: 'tv', notes: '' });
    expect(patch({ display_name: '   ' })).toEqual({ ...current, displayName: null });
  });

  it('sets trimmed display names and notes as sent', () => {
    expect(patch({ display_name: '  Lounge TV ', notes: ' keep  spacing ' })).toEqual({
      displayName: 'Lounge TV',
      kind: 'tv',
      notes: ' keep  spacing ',
    });
  });

  it('refuses over-long fields, unknown kinds and unknown keys', () => {
    expect(DevicePatch.safeParse({ display_name: 'x'.repeat(65) }).success).toBe(false);
    expect(DevicePatch.safeParse({ display_name: 'x'.repeat(64) }).success).toBe(true);
    expect(DevicePatch.safeParse({ notes: 'x'.repeat(1001) }).success).toBe(false);
    expect(DevicePatch.safeParse({ notes: 'x'.repeat(1000) }).success).toBe(true);
    expect(DevicePatch.safeParse({ kind: 'fridge' }).success).toBe(false);
    expect(DevicePatch.safeParse({ kind: null }).success).toBe(false);
    expect(DevicePatch.safeParse({ name: 'x' }).success).toBe(false);
  });
});
