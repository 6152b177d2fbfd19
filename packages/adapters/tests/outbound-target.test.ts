import type { LookupAddress } from 'node:dns';
import { nonPublicRangeOf, publicOnlyLookup, refusedTarget } from '@svc/adapters';
import { describe, expect, it } from 'vitest';

type Answer = { error: Error | null; address: string | LookupAddress[]; family?: number };

function lookupWith(addresses: LookupAddress[], all: boolean): Promise<Answer> {
  const lookup = publicOnlyLookup((_hostname, _options, callback) => callback(null, addresses));
  return new Promise((resolve) =>
    lookup('lists.example', { all }, (error, address, family) =>
      resolve({ error, address, ...(family === undefined ? {} : { family }) }),
    ),
  );
}

describe('outbound targets (issue 35: redirects only to public https addresses)', () => {
  it('names the range of every address that is not public unicast, IPv4 and IPv6', () => {
    expect(nonPublicRangeOf('127.0.0.1')).toBe('loopback');
    expect(nonPublicRangeOf('10.1.2.3')).toBe('private');
    expect(nonPublicRangeOf('172.16.0.1')).toBe('private');
    expect(nonPublicRangeOf('192.168.1.1')).toBe('private');
    expect(nonPublicRangeOf('169.254.169.254')).toBe('linkLocal');
    expect(nonPublicRangeOf('100.64.0.1')).toBe('carrierGradeNat');
    expect(nonPublicRangeOf('0.0.0.0')).toBe('unspecified');
    expect(nonPublicRangeOf('192.0.2.1')).toBe('documentation');
    expect(nonPublicRangeOf('::1')).toBe('loopback');
    expect(nonPublicRangeOf('fc00::1')).toBe('uniqueLocal');
    expect(nonPublicRangeOf('fd12:3456::1')).toBe('uniqueLocal');
    expect(nonPublicRangeOf('fe80::1%eth0')).toBe('linkLocal');
    expect(nonPublicRangeOf('::ffff:10.0.0.1')).toBe('private');
    expect(nonPublicRangeOf('::ffff:7f00:1')).toBe('loopback');
    expect(nonPublicRangeOf('64:ff9b::a00:1')).not.toBeNull();
    expect(nonPublicRangeOf('93.184.216.34')).toBeNull();
    expect(nonPublicRangeOf('2606:4700::1111')).toBeNull();
  });

  it('refuses http and address literals that are not public before any connection', () => {
    expect(refusedTarget(new URL('https://lists.example/x'))).toBeNull();
    expect(refusedTarget(new URL('https://93.184.216.34/x'))).toBeNull();
    expect(refusedTarget(new URL('http://lists.example/x'))).toMatch(/https only/);
    expect(refusedTarget(new URL('https://[::1]/x'))).toMatch(/loopback/);
    expect(refusedTarget(new URL('https://0x7f000001/x'))).toMatch(/loopback/);
  });

  it('connects only to resolved addresses that are all public: one private answer refuses the name', async () => {
    const rebound = await lookupWith(
      [
        { address: '93.184.216.34', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
      true,
    );
    expect(rebound.error?.message).toBe('lists.example resolves to 127.0.0.1, a loopback address');
    const mapped = await lookupWith([{ address: '::ffff:169.254.169.254', family: 6 }], false);
    expect(mapped.error?.message).toMatch(/linkLocal/);
    const fine = await lookupWith([{ address: '93.184.216.34', family: 4 }], false);
    expect(fine).toEqual({ error: null, address: '93.184.216.34', family: 4 });
    const all = await lookupWith([{ address: '2606:4700::1111', family: 6 }], true);
    expect(all).toEqual({ error: null, address: [{ address: '2606:4700::1111', family: 6 }] });
  });
});
