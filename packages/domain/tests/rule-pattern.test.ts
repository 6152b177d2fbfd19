import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  assertWithinRuleLimit,
  countRules,
  DomainError,
  normaliseDomainName,
  normaliseRewriteAnswer,
  normaliseRulePattern,
  ProfileRules,
  RewriteAnswer,
  RewriteRule,
  RULES_LIMIT_DEFAULT,
  RulePattern,
  ruleMatches,
  rulePatternParts,
} from '../src/index.js';

const label63 = 'a'.repeat(63);
/** A name of exactly `length` characters: labels of 63 joined by dots, then a shorter last label. */
function nameOfLength(length: number): string {
  const labels: string[] = [];
  let remaining = length;
  while (remaining > 0) {
    const size = Math.min(63, remaining);
    labels.push('b'.repeat(size));
    remaining -= size + 1;
  }
  const name = labels.join('.');
  return name.length === length ? name : name.slice(0, length);
}

describe(normaliseRulePattern.name, () => {
  it.each([
    // bare: the name and its subdomains
    ['example.com', 'example.com'],
    ['  Example.COM  ', 'example.com'],
    ['example.com.', 'example.com'],
    ['\tads.example.com\n', 'ads.example.com'],
    ['local', 'local'],
    ['_dmarc.example.com', '_dmarc.example.com'],
    ['_sip._tcp.example.com', '_sip._tcp.example.com'],
    ['a-b.example', 'a-b.example'],
    ['ab--cd.example', 'ab--cd.example'],
    ['1.2.3.4.in-addr.arpa', '1.2.3.4.in-addr.arpa'],
    ['123.example', '123.example'],
    ['example.1x', 'example.1x'],
    ['example.0xg', 'example.0xg'],
    ['a', 'a'],
    // exact
    ['=example.com', '=example.com'],
    ['=Example.com.', '=example.com'],
    ['  =localhost ', '=localhost'],
    // subdomains only
    ['*.example.com', '*.example.com'],
    ['*.EXAMPLE.com.', '*.example.com'],
    ['*.zip', '*.zip'],
    // IDNA
    ['bücher.example', 'xn--bcher-kva.example'],
    ['=BÜCHER.example.', '=xn--bcher-kva.example'],
    ['*.bücher.example', '*.xn--bcher-kva.example'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['faß.de', 'xn--fa-hia.de'],
    ['ＡＢ.com', 'ab.com'],
    ['bücher.example。', 'xn--bcher-kva.example'],
    ['a\u00adb.com', 'ab.com'],
  ])('accepts %j as %j', (input, pattern) => {
    expect(normaliseRulePattern(input)).toEqual({ ok: true, pattern });
  });

  it.each([
    ['', /must not be empty/],
    ['   ', /must not be empty/],
    ['*', /"\*" alone would match every name/],
    ['*.', /must have a domain name after "\*\."/],
    ['=', /must have a domain name after "="/],
    ['**.example.com', /may use "\*" only as a leading "\*\."/],
    ['*.*.example.com', /may use "\*" only as a leading "\*\."/],
    ['a.*.b', /may use "\*" only as a leading "\*\."/],
    ['*example.com', /may use "\*" only as a leading "\*\."/],
    ['example.*', /may use "\*" only as a leading "\*\."/],
    ['=*.example.com', /at most one prefix/],
    ['==example.com', /at most one prefix/],
    ['*.=example.com', /at most one prefix/],
    ['= example.com', /a space is not allowed/],
    ['exa mple.com', /a space is not allowed/],
    ['https://example.com', /":" is not allowed/],
    ['example.com/path', /"\/" is not allowed/],
    ['example.com:443', /":" is not allowed/],
    ['user@example.com', /"@" is not allowed/],
    ['example.com?q', /"\?" is not allowed/],
    ['example.com#x', /"#" is not allowed/],
    ['ex%41mple.com', /"%" is not allowed/],
    ['a\\b.com', /"\\" is not allowed/],
    ['[::1]', /"\[" is not allowed/],
    ['::1', /":" is not allowed/],
    ['ex!ample.com', /"!" is not allowed/],
    ['exa=mple.com', /"=" is not allowed/],
    ['1.2.3.4', /not an IP address/],
    ['=1.2.3.4', /not an IP address/],
    ['*.1.2.3.4', /not an IP address/],
    ['1.2.3.4.', /not an IP address/],
    ['1.2.3', /not an IP address/],
    ['0x7f.1', /not an IP address/],
    ['999.1.1.1', /not an IP address/],
    ['example.0x', /not an IP address/],
    ['１２７.０.０.１', /not an IP address/],
    ['.example.com', /must not have empty labels/],
    ['example..com', /must not have empty labels/],
    ['example.com..', /must not have empty labels/],
    ['.', /must not have empty labels/],
    ['-example.com', /starting or ending with "-"/],
    ['example-.com', /starting or ending with "-"/],
    ['example.-com', /starting or ending with "-"/],
    ['xn--invalid-.example', /starting or ending with "-"/],
    ['xn--zz.example', /valid internationalised domain name/],
    ['a\u200db.com', /valid internationalised domain name/],
    [`${'a'.repeat(64)}.com`, /labels of at most 63 characters/],
    [`${'ü'.repeat(60)}.com`, /labels of at most 63 characters \(after IDNA conversion\)/],
    [nameOfLength(254), /at most 253 characters/],
    [`${nameOfLength(250)}.üü`, /at most 253 characters long as a domain name \(after IDNA conversion\)/],
  ])('refuses %j', (input, message) => {
    const result = normaliseRulePattern(input);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.message).toMatch(message);
  });

  it('names the allowed forms in prefix and star messages', () => {
    for (const input of ['', '*', '*.', '=', 'a.*.b', '=*.a']) {
      const result = normaliseRulePattern(input);
      expect(result.ok ? '' : result.message).toContain('example.com), an exact name (=example.com)');
    }
  });

  it('keeps the length limits at their edges: 63 per label, 253 in all', () => {
    expect(normaliseRulePattern(`${label63}.com`)).toEqual({ ok: true, pattern: `${label63}.com` });
    const longest = nameOfLength(253);
    expect(longest).toHaveLength(253);
    expect(normaliseRulePattern(longest)).toEqual({ ok: true, pattern: longest });
    expect(normaliseRulePattern(`=${longest}.`)).toEqual({ ok: true, pattern: `=${longest}` });
    expect(normaliseRulePattern(`*.${longest}`)).toEqual({ ok: true, pattern: `*.${longest}` });
    expect(normaliseRulePattern(nameOfLength(254)).ok).toBe(false);
  });
});

describe(normaliseDomainName.name, () => {
  it('normalises a host name without prefixes', () => {
    expect(normaliseDomainName(' Bücher.Example. ')).toEqual({ ok: true, name: 'xn--bcher-kva.example' });
    expect(normaliseDomainName('=example.com').ok).toBe(false);
    expect(normaliseDomainName('*.example.com').ok).toBe(false);
  });
});

describe(rulePatternParts.name, () => {
  it.each([
    ['example.com', 'subtree', 'example.com'],
    ['=example.com', 'exact', 'example.com'],
    ['*.example.com', 'subdomains', 'example.com'],
  ])('%s is %s of %s', (pattern, form, name) => {
    expect(rulePatternParts(pattern)).toEqual({ form, name });
  });
});

describe(ruleMatches.name, () => {
  const names = [
    'example.com',
    'www.example.com',
    'a.b.example.com',
    'notexample.com',
    'example.com.evil',
    'com',
    '',
  ] as const;
  const expected: Record<string, boolean[]> = {
    'example.com': [true, true, true, false, false, false, false],
    '=example.com': [true, false, false, false, false, false, false],
    '*.example.com': [false, true, true, false, false, false, false],
    com: [true, true, true, true, false, true, false],
    '*.com': [true, true, true, true, false, false, false],
    '=com': [false, false, false, false, false, true, false],
  };
  for (const [pattern, outcomes] of Object.entries(expected)) {
    it.each(names.map((name, index) => [name, outcomes[index]]))(
      `${pattern} against %j → %s`,
      (name, outcome) => {
        expect(ruleMatches(pattern, String(name))).toBe(outcome);
      },
    );
  }

  it.each([
    ['example.com', 'WWW.Example.COM.', true],
    ['=example.com', 'EXAMPLE.COM.', true],
    ['=example.com', 'example.com..', false],
    ['*.example.com', 'Www.Example.Com.', true],
    ['*.example.com', 'example.com.', false],
    ['*.example.com', '.example.com', false],
    ['example.com', '.', false],
    ['_dmarc.example.com', '_DMARC.example.com', true],
    ['xn--bcher-kva.example', 'www.XN--BCHER-KVA.example.', true],
    ['xn--bcher-kva.example', 'bücher.example', false],
    // Only ASCII folds: the Kelvin sign (U+212A) lower-cases to "k" in Unicode, never in DNS.
    ['kk.example', '\u212Ak.example', false],
    ['Example.com', 'www.example.com', true],
  ])('%s against %j → %s (case and trailing dot)', (pattern, name, outcome) => {
    expect(ruleMatches(pattern, name)).toBe(outcome);
  });
});

describe('RulePattern schema', () => {
  it('gives the normal form', () => {
    expect(RulePattern.parse(' =BÜCHER.example. ')).toBe('=xn--bcher-kva.example');
  });

  it('reports one readable issue for a refused pattern', () => {
    const result = RulePattern.safeParse('a.*.b');
    expect(result.success).toBe(false);
    expect(result.error?.issues).toHaveLength(1);
    expect(result.error?.issues[0]?.message).toMatch(/may use "\*" only as a leading "\*\."/);
  });

  it('refuses text over 300 characters with the length message only', () => {
    const result = RulePattern.safeParse('a'.repeat(301));
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['must be at most 300 characters']);
  });

  it('is a plain string in JSON Schema both ways', () => {
    expect(z.toJSONSchema(RulePattern, { io: 'input' })).toMatchObject({ type: 'string', maxLength: 300 });
    expect(z.toJSONSchema(RulePattern, { io: 'output' })).toMatchObject({ type: 'string' });
  });
});

describe(normaliseRewriteAnswer.name, () => {
  it.each([
    ['192.0.2.1', 'ipv4', '192.0.2.1'],
    [' 0.0.0.0 ', 'ipv4', '0.0.0.0'],
    ['255.255.255.255', 'ipv4', '255.255.255.255'],
    ['2001:DB8::1', 'ipv6', '2001:db8::1'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', 'ipv6', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', 'ipv6', '2001:db8::1:0:0:1'],
    ['2001:db8:0:1:1:1:1:1', 'ipv6', '2001:db8:0:1:1:1:1:1'],
    ['::', 'ipv6', '::'],
    ['::1', 'ipv6', '::1'],
    ['::ffff:192.0.2.1', 'ipv6', '::ffff:192.0.2.1'],
    ['::FFFF:c000:0201', 'ipv6', '::ffff:192.0.2.1'],
    ['Bücher.Example.', 'cname', 'xn--bcher-kva.example'],
    ['target.example.net', 'cname', 'target.example.net'],
    ['localhost', 'cname', 'localhost'],
  ])('accepts %j as %s %j', (input, kind, answer) => {
    expect(normaliseRewriteAnswer(input)).toEqual({ ok: true, kind, answer });
  });

  it.each([
    ['', /must not be empty/],
    ['256.0.0.1', /must be an IPv4 address of four numbers 0 to 255/],
    ['01.2.3.4', /without leading zeros/],
    ['1.2.3', /must be an IPv4 address/],
    ['1.2.3.4.', /must be an IPv4 address/],
    ['2001:db8::1::1', /must be an IPv6 address without brackets or zone/],
    ['[2001:db8::1]', /must be an IPv6 address without brackets or zone/],
    ['fe80::1%eth0', /must be an IPv6 address without brackets or zone/],
    ['2001:db8:g::1', /must be an IPv6 address without brackets or zone/],
    ['=example.com', /"=" is not allowed/],
    ['*.example.com', /"\*" is not allowed/],
    ['http://example.com', /must be an IPv6 address/],
    ['-bad.example', /starting or ending with "-"/],
  ])('refuses %j', (input, message) => {
    const result = normaliseRewriteAnswer(input);
    expect(result.ok).toBe(false);
    const text = result.ok ? '' : result.message;
    expect(text).toMatch(message);
    for (const allowed of ['IPv4 address', 'IPv6 address', 'host name (example.com)'])
      expect(text).toContain(allowed);
  });

  it('is the RewriteAnswer schema', () => {
    expect(RewriteAnswer.parse('2001:DB8:0:0::1')).toBe('2001:db8::1');
    expect(RewriteAnswer.safeParse('1.2.3').success).toBe(false);
  });
});

describe('ProfileRules schema', () => {
  it('defaults each missing list to empty', () => {
    expect(ProfileRules.parse({})).toEqual({ deny: [], allow: [], rewrites: [] });
  });

  it('normalises and drops duplicates within a list, keeping first occurrences in order', () => {
    const rules = ProfileRules.parse({
      deny: [
        'b.example',
        'A.example',
        'b.example.',
        'a.example',
        '=a.example',
        'BÜCHER.example',
        'xn--bcher-kva.example',
      ],
      allow: ['*.x.example', '*.X.example.'],
      rewrites: [
        { pattern: 'r.example', answer: '192.0.2.1' },
        { pattern: 'R.example.', answer: '192.0.2.1' },
        { pattern: 'r.example', answer: '2001:DB8::1' },
        { pattern: 'r.example', answer: '2001:db8:0::1' },
        { pattern: 'r.example', answer: '192.0.2.2' },
      ],
    });
    expect(rules).toEqual({
      deny: ['b.example', 'a.example', '=a.example', 'xn--bcher-kva.example'],
      allow: ['*.x.example'],
      rewrites: [
        { pattern: 'r.example', answer: '192.0.2.1' },
        { pattern: 'r.example', answer: '2001:db8::1' },
        { pattern: 'r.example', answer: '192.0.2.2' },
      ],
    });
  });

  it('lets one pattern be both denied and allowed (allow wins at the edge)', () => {
    expect(ProfileRules.parse({ deny: ['x.example'], allow: ['x.example'] })).toMatchObject({
      deny: ['x.example'],
      allow: ['x.example'],
    });
  });

  it('names the failing entry in the issue path', () => {
    const result = ProfileRules.safeParse({
      deny: ['ok.example', 'bad..example'],
      rewrites: [{ pattern: 'r.example', answer: '1.2.3' }],
    });
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual([
      'deny.1',
      'rewrites.0.answer',
    ]);
  });

  it('parses a rewrite rule', () => {
    expect(RewriteRule.parse({ pattern: '*.Lan.', answer: 'NAS.lan' })).toEqual({
      pattern: '*.lan',
      answer: 'nas.lan',
    });
  });
});

describe(assertWithinRuleLimit.name, () => {
  const rules = (deny: number, allow: number, rewrites: number): ProfileRules => ({
    deny: Array.from({ length: deny }, (_, index) => `d${index}.example`),
    allow: Array.from({ length: allow }, (_, index) => `a${index}.example`),
    rewrites: Array.from({ length: rewrites }, (_, index) => ({
      pattern: `r${index}.example`,
      answer: '192.0.2.1',
    })),
  });

  it('counts the three lists together', () => {
    expect(countRules(rules(3, 2, 1))).toBe(6);
    expect(RULES_LIMIT_DEFAULT).toBe(1000);
  });

  it('accepts exactly the limit', () => {
    expect(() => assertWithinRuleLimit(rules(998, 1, 1), 1000)).not.toThrow();
    expect(() => assertWithinRuleLimit(rules(1000, 0, 0))).not.toThrow();
  });

  it('refuses one over the limit with too_many_rules and a field error per non-empty list', () => {
    const error = (() => {
      try {
        assertWithinRuleLimit(rules(1, 0, 2), 2);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      code: 'too_many_rules',
      fieldErrors: [
        {
          field: 'deny',
          message: 'holds 1 of 3 rules; deny, allow and rewrites together may hold at most 2',
        },
        {
          field: 'rewrites',
          message: 'holds 2 of 3 rules; deny, allow and rewrites together may hold at most 2',
        },
      ],
    });
  });
});
