import { describe, expect, it } from 'vitest';
import { normaliseCidr } from '../src/index.js';

describe(normaliseCidr.name, () => {
  it.each([
    ['203.0.113.77/24', '203.0.113.0/24'],
    [' 198.51.100.9 ', '198.51.100.9/32'],
    ['10.1.2.3/8', '10.0.0.0/8'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['192.0.2.255/25', '192.0.2.128/25'],
    ['2001:DB8::1/32', '2001:db8::/32'],
    ['2001:db8:0:0:0:0:0:1', '2001:db8::1/128'],
    ['2001:db8:abcd:12ff::/52', '2001:db8:abcd:1000::/52'],
    ['::ffff:192.0.2.1/128', '::ffff:c000:201/128'],
    ['fe80::1:0:0:1/64', 'fe80::/64'],
    ['2001:0:0:1:0:0:0:1', '2001:0:0:1::1/128'],
    ['::/0', '::/0'],
  ])('masks %s to %s', (input, expected) => {
    expect(normaliseCidr(input)).toEqual({ ok: true, cidr: expected });
  });

  it.each([
    '203.0.113.0/33',
    '2001:db8::/129',
    '256.0.0.0/8',
    '1.2.3/24',
    '2001:db8:::1/64',
    '1:2:3:4:5:6:7:8:9',
    'example.com',
    '10.0.0.0/',
    '10.0.0.0/-1',
    '01.2.3.4',
  ])('refuses %s', (input) => {
    expect(normaliseCidr(input).ok).toBe(false);
  });
});
