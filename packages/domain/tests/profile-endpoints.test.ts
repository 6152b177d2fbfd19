import { describe, expect, it } from 'vitest';
import { profileEndpoints, profileEndpointsOf, profileIpv6 } from '../src/index.js';

const resolver = {
  domain: 'dns.example',
  ipv6Prefixes: ['2001:db8:53::/48', '2a0d:2a00:1:0::/48'],
  ipv4Anycast: ['192.0.2.53', '198.51.100.53'],
};

/** Spec 2.3 endpoints: the IPv6 resolver addresses carry the profile id in their low 48 bits. */
describe('profile endpoints', () => {
  it('puts the six ASCII bytes of the id in the low 48 bits of each anycast /48', () => {
    expect(profileIpv6('2001:db8:53::/48', 'abc123')).toBe('2001:db8:53::6162:6331:3233');
    expect(profileIpv6('2a0d:2a00:1:0::/48', 'zz0a9y')).toBe('2a0d:2a00:1::7a7a:3061:3979');
    expect(profileIpv6('2001:db8:53::', '000001')).toBe('2001:db8:53::3030:3030:3031');
  });

  it('answers every endpoint of a profile from the resolver settings', () => {
    expect(profileEndpoints('abc123', resolver)).toEqual({
      doh: 'https://dns.example/abc123',
      dot: 'abc123.dns.example',
      dot_device: '<device>-abc123.dns.example',
      doq: 'quic://abc123.dns.example',
      ipv6: ['2001:db8:53::6162:6331:3233', '2a0d:2a00:1::6162:6331:3233'],
      ipv4: ['192.0.2.53', '198.51.100.53'],
    });
  });

  it('gives each profile its own answer, which a caller may change without touching the next', () => {
    const endpointsOf = profileEndpointsOf(resolver);
    const first = endpointsOf('abc123');
    first.ipv4.push('203.0.113.1');
    first.ipv6.pop();
    expect(endpointsOf('abc123')).toEqual(profileEndpoints('abc123', resolver));
    expect(endpointsOf('xyz789').ipv6).toEqual([
      '2001:db8:53::7879:7a37:3839',
      '2a0d:2a00:1::7879:7a37:3839',
    ]);
  });
});
