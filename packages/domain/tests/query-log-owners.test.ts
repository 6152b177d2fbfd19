import { describe, expect, it } from 'vitest';
import {
  AddressOwners,
  isPublicAddress,
  OWNER_CLASSIFICATION,
  ownerOfAddress,
  ownerOfName,
  ownerOfQuery,
  parsePrefix,
} from '../src/index.js';

describe('owner classification (spec 4.6 rules 5, 6)', () => {
  it('classifies five platform companies and three content-delivery operators, validated at load', () => {
    expect(OWNER_CLASSIFICATION.map((entry) => entry.owner).sort()).toEqual(
      ['akamai', 'amazon', 'apple', 'cloudflare', 'fastly', 'google', 'meta', 'microsoft'].sort(),
    );
  });

  it('a name belongs to the owner of its suffix, the name itself or a parent, case and trailing dot aside', () => {
    expect(ownerOfName('www.google.com')).toBe('google');
    expect(ownerOfName('YouTube.com.')).toBe('google');
    expect(ownerOfName('scontent-yyz1-1.fbcdn.net')).toBe('meta');
    expect(ownerOfName('notgoogle.com')).toBe('');
    expect(ownerOfName('example.org')).toBe('');
  });

  it('an address belongs to the owner of its prefix, IPv4 and IPv6', () => {
    expect(ownerOfAddress('142.250.80.46')).toBe('google');
    expect(ownerOfAddress('17.253.144.10')).toBe('apple');
    expect(ownerOfAddress('151.101.1.69')).toBe('fastly');
    expect(ownerOfAddress('2606:4700:3030::ac43:c1e2')).toBe('cloudflare');
    expect(ownerOfAddress('2a03:2880:f10c:83:face:b00c:0:25de')).toBe('meta');
    expect(ownerOfAddress('94.130.1.1')).toBe('');
    expect(ownerOfAddress('not an address')).toBe('');
  });

  it('a query’s owner is its name’s, else its first classified answer’s', () => {
    expect(ownerOfQuery('www.google.com', ['104.16.1.1'])).toBe('google');
    expect(ownerOfQuery('shop.example', ['94.130.1.1', '104.16.1.1', '151.101.1.1'])).toBe('cloudflare');
    expect(ownerOfQuery('shop.example', ['94.130.1.1'])).toBe('');
  });

  it('answers the same when a query service remembers the addresses it classified, asked twice', () => {
    const owners = new AddressOwners();
    for (const round of [1, 2]) {
      for (const ip of ['142.250.80.46', '2606:4700:3030::ac43:c1e2', '94.130.1.1', 'not an address'])
        expect(owners.ownerOf(ip), `${ip}, round ${round}`).toBe(ownerOfAddress(ip));
      expect(owners.ownerOfQuery('shop.example', ['94.130.1.1', '104.16.1.1'])).toBe('cloudflare');
      expect(owners.ownerOfQuery('www.apple.com', ['104.16.1.1'])).toBe('apple');
    }
  });
});

describe('address prefixes', () => {
  it('parses IPv4, IPv6 and IPv4-mapped forms and refuses malformed prefixes', () => {
    expect(parsePrefix('10.0.0.0/8').bits).toBe(8);
    expect(parsePrefix('2001:db8::/32').width).toBe(128);
    expect(() => parsePrefix('10.0.0.0/33')).toThrow();
    expect(() => parsePrefix('10.0.0/8')).toThrow();
    expect(() => parsePrefix('1::2::3/64')).toThrow();
  });

  it('private, reserved and documentation addresses are not public (their country stays empty)', () => {
    for (const ip of [
      '10.1.2.3',
      '192.168.0.1',
      '127.0.0.1',
      '100.64.0.1',
      '203.0.113.9',
      '::1',
      'fd00::1',
      'fe80::1',
      '2001:db8::5',
      '::ffff:8.8.8.8',
    ]) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
    for (const ip of ['8.8.8.8', '2607:f8b0:4004::200e', '94.130.1.1']) {
      expect(isPublicAddress(ip), ip).toBe(true);
    }
  });
});
