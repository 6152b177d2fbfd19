import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  DomainError,
  ECS_OPERATOR_CAP_DEFAULT,
  type EcsForwardingInput,
  EcsMode,
  EcsOperatorCap,
  type EcsSubnet,
  ecsModePrefix,
  formatIpAddress,
  forwardedEcs,
  type IpAddress,
  isIpv4Mapped,
  maskIpAddress,
  normaliseIpAddress,
  parseIpAddress,
  parseIpv4,
  parseIpv6,
  unmapIpv4,
} from '../src/index.js';

function address(text: string): IpAddress {
  const parsed = parseIpAddress(text);
  if (parsed === null) throw new Error(`test address ${text} does not parse`);
  return parsed;
}

describe(parseIpv4.name, () => {
  it.each([
    ['0.0.0.0', [0, 0, 0, 0]],
    ['192.0.2.1', [192, 0, 2, 1]],
    ['255.255.255.255', [255, 255, 255, 255]],
    ['10.0.100.9', [10, 0, 100, 9]],
  ])('parses %s', (text, bytes) => {
    expect(Array.from(parseIpv4(text) ?? [])).toEqual(bytes);
  });

  it.each([
    '',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '1.1.1.256',
    '01.1.1.1',
    '1.1.1.00',
    '1..1.1',
    ' 1.1.1.1',
    '1.1.1.1 ',
    '0x1.1.1.1',
    '+1.1.1.1',
    '1e2.1.1.1',
    '1.2.3.4.',
    '١.2.3.4',
  ])('refuses %j', (text) => {
    expect(parseIpv4(text)).toBeNull();
  });
});

describe(parseIpv6.name, () => {
  it.each([
    ['::', '::'],
    ['::1', '::1'],
    ['1::', '1::'],
    ['2001:db8::', '2001:db8::'],
    ['2001:DB8:0:0:0:0:0:0', '2001:db8::'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:0:0:1:0:0:0:1', '2001:0:0:1::1'],
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
    ['1:0:1:0:1:0:1:0', '1:0:1:0:1:0:1:0'],
    ['1:2:3:4:5:6:7::', '1:2:3:4:5:6:7:0'],
    ['::2:3:4:5:6:7:8', '0:2:3:4:5:6:7:8'],
    ['0:0:1:0:0:0:0:0', '0:0:1::'],
    ['FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['::ffff:192.0.2.1', '::ffff:192.0.2.1'],
    ['::ffff:c000:201', '::ffff:192.0.2.1'],
    ['0:0:0:0:0:ffff:192.0.2.1', '::ffff:192.0.2.1'],
    ['::1.2.3.4', '::102:304'],
    ['64:ff9b::192.0.2.1', '64:ff9b::c000:201'],
    ['1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:102:304'],
  ])('parses %s, canonical %s (RFC 5952)', (text, canonical) => {
    const bytes = parseIpv6(text);
    expect(bytes).not.toBeNull();
    expect(formatIpAddress({ family: 6, bytes: bytes ?? new Uint8Array(16) })).toBe(canonical);
  });

  it.each([
    '',
    ':',
    ':::',
    '1:::2',
    '1::2::3',
    '12345::',
    'g::',
    '1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:8:9',
    '1::2:3:4:5:6:7:8',
    ':1::',
    '1::2:',
    ':1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:',
    '1.2.3.4::',
    '1.2.3.4::1',
    '::1.2.3',
    '::1.2.3.4:1',
    '::256.0.0.1',
    '1:2:3:4:5:6:7:1.2.3.4',
    'fe80::1%eth0',
    '[::1]',
    ' ::1',
    '192.0.2.1',
  ])('refuses %j', (text) => {
    expect(parseIpv6(text)).toBeNull();
  });
});

describe(normaliseIpAddress.name, () => {
  it('gives canonical text of either family, null for anything else', () => {
    expect(normaliseIpAddress('192.0.2.1')).toBe('192.0.2.1');
    expect(normaliseIpAddress('2001:DB8::0:1')).toBe('2001:db8::1');
    expect(normaliseIpAddress('example.com')).toBeNull();
  });
});

describe('IPv4-mapped IPv6', () => {
  it('is recognised and unmapped to IPv4', () => {
    const mapped = address('::ffff:192.0.2.1');
    expect(isIpv4Mapped(mapped)).toBe(true);
    expect(formatIpAddress(unmapIpv4(mapped))).toBe('192.0.2.1');
    expect(unmapIpv4(mapped).family).toBe(4);
  });

  it('leaves other addresses alone', () => {
    for (const text of ['::1.2.3.4', '::fffe:1.2.3.4', '1::ffff:1.2.3.4', '192.0.2.1']) {
      expect(isIpv4Mapped(address(text))).toBe(false);
      expect(unmapIpv4(address(text))).toEqual(address(text));
    }
  });
});

describe(maskIpAddress.name, () => {
  it.each([
    [0, '0.0.0.0'],
    [1, '128.0.0.0'],
    [23, '255.255.254.0'],
    [24, '255.255.255.0'],
    [25, '255.255.255.128'],
    [31, '255.255.255.254'],
    [32, '255.255.255.255'],
  ])('IPv4 all ones /%i → %s', (prefix, masked) => {
    expect(formatIpAddress(maskIpAddress(address('255.255.255.255'), prefix))).toBe(masked);
  });

  it.each([
    [0, '0.0.0.0'],
    [1, '128.0.0.0'],
    [23, '192.0.2.0'],
    [24, '192.0.2.0'],
    [25, '192.0.2.128'],
    [32, '192.0.2.130'],
  ])('192.0.2.130/%i → %s', (prefix, masked) => {
    expect(formatIpAddress(maskIpAddress(address('192.0.2.130'), prefix))).toBe(masked);
  });

  it.each([
    [0, '::'],
    [1, '8000::'],
    [48, 'ffff:ffff:ffff::'],
    [56, 'ffff:ffff:ffff:ff00::'],
    [57, 'ffff:ffff:ffff:ff80::'],
    [64, 'ffff:ffff:ffff:ffff::'],
    [127, 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe'],
    [128, 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ])('IPv6 all ones /%i → %s', (prefix, masked) => {
    expect(formatIpAddress(maskIpAddress(address('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'), prefix))).toBe(
      masked,
    );
  });

  it.each([
    [0, '::'],
    [1, '::'],
    [48, '2001:db8:1234::'],
    [56, '2001:db8:1234:5600::'],
    [57, '2001:db8:1234:5600::'],
    [64, '2001:db8:1234:5678::'],
    [127, '2001:db8:1234:5678:9abc:def0:1234:5678'],
    [128, '2001:db8:1234:5678:9abc:def0:1234:5679'],
  ])('2001:db8:1234:5678:9abc:def0:1234:5679/%i → %s', (prefix, masked) => {
    const client = address('2001:db8:1234:5678:9abc:def0:1234:5679');
    expect(formatIpAddress(maskIpAddress(client, prefix))).toBe(masked);
  });

  it('clamps prefixes outside the family and leaves its input unchanged', () => {
    const client = address('192.0.2.130');
    expect(formatIpAddress(maskIpAddress(client, 200))).toBe('192.0.2.130');
    expect(formatIpAddress(maskIpAddress(client, -1))).toBe('0.0.0.0');
    expect(formatIpAddress(client)).toBe('192.0.2.130');
  });
});

describe('EcsMode schema', () => {
  it('defaults to off and knows the three modes', () => {
    expect(EcsMode.parse(undefined)).toBe('off');
    for (const mode of ['off', 'anonymised', 'full']) expect(EcsMode.parse(mode)).toBe(mode);
    expect(EcsMode.safeParse('anonymized').success).toBe(false);
    expect(z.globalRegistry.get(EcsMode)?.description).toMatch(/\/0 opt-out is always honoured/);
  });

  it('has an operator cap schema defaulting to no cap', () => {
    expect(EcsOperatorCap.parse({})).toEqual(ECS_OPERATOR_CAP_DEFAULT);
    expect(ECS_OPERATOR_CAP_DEFAULT).toEqual({ v4: 32, v6: 128 });
    expect(EcsOperatorCap.safeParse({ v4: 33 }).success).toBe(false);
    expect(EcsOperatorCap.safeParse({ v6: 129 }).success).toBe(false);
    expect(EcsOperatorCap.safeParse({ v4: 24.5 }).success).toBe(false);
  });
});

describe(ecsModePrefix.name, () => {
  it.each([
    ['off', 4, undefined, 0],
    ['off', 6, undefined, 0],
    ['anonymised', 4, undefined, 24],
    ['anonymised', 6, undefined, 56],
    ['full', 4, undefined, 32],
    ['full', 6, undefined, 128],
    ['full', 4, { v4: 24, v6: 48 }, 24],
    ['full', 6, { v4: 24, v6: 48 }, 48],
    ['anonymised', 4, { v4: 20, v6: 128 }, 20],
    ['anonymised', 6, { v4: 32, v6: 40 }, 40],
    ['anonymised', 4, { v4: 28, v6: 64 }, 24],
    ['anonymised', 6, { v4: 28, v6: 64 }, 56],
    ['off', 4, { v4: 32, v6: 128 }, 0],
    ['full', 4, { v4: 0, v6: 0 }, 0],
  ] as const)('%s, IPv%i, cap %j → /%i', (mode, family, cap, prefix) => {
    expect(ecsModePrefix(mode, family, cap)).toBe(prefix);
  });
});

describe(forwardedEcs.name, () => {
  const V4_CLIENT = '192.0.2.130';
  const V6_CLIENT = '2001:db8:1234:5678:9abc:def0:1234:5678';
  /** Client options per family: wider than anonymised, narrower than anonymised, and the /0 opt-out. */
  const OPTIONS = {
    4: {
      none: null,
      wider: { family: 4, sourcePrefix: 32, address: '198.51.100.77' },
      narrower: { family: 4, sourcePrefix: 20, address: '198.51.100.77' },
      optOut: { family: 4, sourcePrefix: 0, address: '0.0.0.0' },
    },
    6: {
      none: null,
      wider: { family: 6, sourcePrefix: 128, address: '2001:db8:aaaa:bbbb:cccc:dddd:eeee:ffff' },
      narrower: { family: 6, sourcePrefix: 40, address: '2001:db8:aaaa:bbbb:cccc:dddd:eeee:ffff' },
      optOut: { family: 6, sourcePrefix: 0, address: '::' },
    },
  } as const;
  const v4 = (sourcePrefix: number, address: string): EcsSubnet => ({ family: 4, sourcePrefix, address });
  const v6 = (sourcePrefix: number, address: string): EcsSubnet => ({ family: 6, sourcePrefix, address });

  it.each([
    ['off', 4, 'none', v4(0, '0.0.0.0')],
    ['off', 4, 'wider', v4(0, '0.0.0.0')],
    ['off', 4, 'narrower', v4(0, '0.0.0.0')],
    ['off', 4, 'optOut', v4(0, '0.0.0.0')],
    ['off', 6, 'none', v6(0, '::')],
    ['off', 6, 'wider', v6(0, '::')],
    ['off', 6, 'narrower', v6(0, '::')],
    ['off', 6, 'optOut', v6(0, '::')],
    ['anonymised', 4, 'none', v4(24, '192.0.2.0')],
    ['anonymised', 4, 'wider', v4(24, '198.51.100.0')],
    ['anonymised', 4, 'narrower', v4(20, '198.51.96.0')],
    ['anonymised', 4, 'optOut', v4(0, '0.0.0.0')],
    ['anonymised', 6, 'none', v6(56, '2001:db8:1234:5600::')],
    ['anonymised', 6, 'wider', v6(56, '2001:db8:aaaa:bb00::')],
    ['anonymised', 6, 'narrower', v6(40, '2001:db8:aa00::')],
    ['anonymised', 6, 'optOut', v6(0, '::')],
    ['full', 4, 'none', v4(32, '192.0.2.130')],
    ['full', 4, 'wider', v4(32, '198.51.100.77')],
    ['full', 4, 'narrower', v4(20, '198.51.96.0')],
    ['full', 4, 'optOut', v4(0, '0.0.0.0')],
    ['full', 6, 'none', v6(128, V6_CLIENT)],
    ['full', 6, 'wider', v6(128, '2001:db8:aaaa:bbbb:cccc:dddd:eeee:ffff')],
    ['full', 6, 'narrower', v6(40, '2001:db8:aa00::')],
    ['full', 6, 'optOut', v6(0, '::')],
  ] as const)('%s, IPv%i client, client option %s → %j', (mode, family, option, expected) => {
    const clientAddress = family === 4 ? V4_CLIENT : V6_CLIENT;
    expect(forwardedEcs({ mode, clientAddress, clientOption: OPTIONS[family][option] })).toEqual(expected);
  });

  describe('with an operator cap of /24 and /48', () => {
    const operatorCap = { v4: 24, v6: 48 };
    it.each([
      ['full', 4, 'none', v4(24, '192.0.2.0')],
      ['full', 4, 'wider', v4(24, '198.51.100.0')],
      ['full', 4, 'narrower', v4(20, '198.51.96.0')],
      ['full', 4, 'optOut', v4(0, '0.0.0.0')],
      ['full', 6, 'none', v6(48, '2001:db8:1234::')],
      ['full', 6, 'wider', v6(48, '2001:db8:aaaa::')],
      ['full', 6, 'narrower', v6(40, '2001:db8:aa00::')],
      ['full', 6, 'optOut', v6(0, '::')],
      ['anonymised', 4, 'none', v4(24, '192.0.2.0')],
      ['anonymised', 6, 'none', v6(48, '2001:db8:1234::')],
      ['anonymised', 6, 'wider', v6(48, '2001:db8:aaaa::')],
      ['off', 4, 'wider', v4(0, '0.0.0.0')],
      ['off', 6, 'none', v6(0, '::')],
    ] as const)('%s, IPv%i client, client option %s → %j', (mode, family, option, expected) => {
      const clientAddress = family === 4 ? V4_CLIENT : V6_CLIENT;
      expect(
        forwardedEcs({ mode, clientAddress, clientOption: OPTIONS[family][option], operatorCap }),
      ).toEqual(expected);
    });
  });

  it('lets a cap narrower than anonymised bound anonymised too', () => {
    const operatorCap = { v4: 20, v6: 32 };
    expect(
      forwardedEcs({ mode: 'anonymised', clientAddress: V4_CLIENT, clientOption: null, operatorCap }),
    ).toEqual(v4(20, '192.0.0.0'));
    expect(
      forwardedEcs({ mode: 'anonymised', clientAddress: V6_CLIENT, clientOption: null, operatorCap }),
    ).toEqual(v6(32, '2001:db8::'));
  });

  it('sends /0 under a cap of 0, whatever the mode', () => {
    const operatorCap = { v4: 0, v6: 0 };
    for (const mode of ['off', 'anonymised', 'full'] as const) {
      expect(forwardedEcs({ mode, clientAddress: V4_CLIENT, clientOption: null, operatorCap })).toEqual(
        v4(0, '0.0.0.0'),
      );
      expect(
        forwardedEcs({ mode, clientAddress: V6_CLIENT, clientOption: OPTIONS[6].wider, operatorCap }),
      ).toEqual(v6(0, '::'));
    }
  });

  it("uses the client option's family with that family's limits when it differs from the connection's", () => {
    expect(
      forwardedEcs({ mode: 'anonymised', clientAddress: V6_CLIENT, clientOption: OPTIONS[4].wider }),
    ).toEqual(v4(24, '198.51.100.0'));
    expect(
      forwardedEcs({ mode: 'anonymised', clientAddress: V4_CLIENT, clientOption: OPTIONS[6].wider }),
    ).toEqual(v6(56, '2001:db8:aaaa:bb00::'));
    expect(
      forwardedEcs({
        mode: 'full',
        clientAddress: V4_CLIENT,
        clientOption: OPTIONS[6].wider,
        operatorCap: { v4: 32, v6: 64 },
      }),
    ).toEqual(v6(64, '2001:db8:aaaa:bbbb::'));
    expect(forwardedEcs({ mode: 'off', clientAddress: V4_CLIENT, clientOption: OPTIONS[6].wider })).toEqual(
      v6(0, '::'),
    );
  });

  it('honours a /0 opt-out whatever address bits come with it', () => {
    const optOut: EcsSubnet = { family: 4, sourcePrefix: 0, address: '198.51.100.77' };
    for (const mode of ['off', 'anonymised', 'full'] as const) {
      expect(forwardedEcs({ mode, clientAddress: V4_CLIENT, clientOption: optOut })).toEqual(
        v4(0, '0.0.0.0'),
      );
    }
  });

  it('masks host bits a client left set beyond its own prefix', () => {
    const option: EcsSubnet = { family: 4, sourcePrefix: 25, address: '198.51.100.255' };
    expect(forwardedEcs({ mode: 'full', clientAddress: V4_CLIENT, clientOption: option })).toEqual(
      v4(25, '198.51.100.128'),
    );
  });

  it('treats an IPv4-mapped connection address as an IPv4 client', () => {
    const clientAddress = '::ffff:192.0.2.130';
    expect(forwardedEcs({ mode: 'anonymised', clientAddress, clientOption: null })).toEqual(
      v4(24, '192.0.2.0'),
    );
    expect(forwardedEcs({ mode: 'full', clientAddress, clientOption: null })).toEqual(v4(32, '192.0.2.130'));
    expect(forwardedEcs({ mode: 'off', clientAddress, clientOption: null })).toEqual(v4(0, '0.0.0.0'));
  });

  it('keeps an IPv4-mapped client option in family 6, as the client stated', () => {
    const option: EcsSubnet = { family: 6, sourcePrefix: 128, address: '::FFFF:198.51.100.77' };
    expect(forwardedEcs({ mode: 'full', clientAddress: V4_CLIENT, clientOption: option })).toEqual(
      v6(128, '::ffff:198.51.100.77'),
    );
    expect(forwardedEcs({ mode: 'anonymised', clientAddress: V4_CLIENT, clientOption: option })).toEqual(
      v6(56, '::'),
    );
  });

  it('writes addresses in canonical form', () => {
    expect(forwardedEcs({ mode: 'full', clientAddress: '2001:DB8:0:0:0:0:0:0', clientOption: null })).toEqual(
      v6(128, '2001:db8::'),
    );
    expect(forwardedEcs({ mode: 'anonymised', clientAddress: '2001:db8::ff', clientOption: null })).toEqual(
      v6(56, '2001:db8::'),
    );
  });

  it.each([
    [{ clientAddress: 'not-an-address' }, 'client_address'],
    [{ clientAddress: '192.0.2.1/24' }, 'client_address'],
    [{ clientOption: { family: 4, sourcePrefix: 24, address: '2001:db8::' } }, 'ecs.address'],
    [{ clientOption: { family: 6, sourcePrefix: 56, address: '192.0.2.0' } }, 'ecs.address'],
    [{ clientOption: { family: 4, sourcePrefix: 33, address: '192.0.2.0' } }, 'ecs.source_prefix'],
    [{ clientOption: { family: 6, sourcePrefix: 129, address: '::' } }, 'ecs.source_prefix'],
    [{ clientOption: { family: 4, sourcePrefix: -1, address: '192.0.2.0' } }, 'ecs.source_prefix'],
    [{ clientOption: { family: 4, sourcePrefix: 1.5, address: '192.0.2.0' } }, 'ecs.source_prefix'],
    [{ clientOption: { family: 5, sourcePrefix: 0, address: '0.0.0.0' } }, 'ecs.family'],
    [{ operatorCap: { v4: 33, v6: 128 } }, 'operator_cap'],
    [{ operatorCap: { v4: 32, v6: -1 } }, 'operator_cap'],
  ])('refuses %j (field %s)', (override, field) => {
    const input = {
      mode: 'full',
      clientAddress: V4_CLIENT,
      clientOption: null,
      ...override,
    } as EcsForwardingInput;
    expect(() => forwardedEcs(input)).toThrow(DomainError);
    try {
      forwardedEcs(input);
    } catch (error) {
      expect(error).toMatchObject({ code: 'validation_failed', fieldErrors: [{ field }] });
    }
  });
});
