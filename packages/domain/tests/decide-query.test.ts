import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DomainSet,
  decideQuery,
  type FilteringInputs,
  type FilteringProfile,
  type FilterList,
  ListCompiler,
  normaliseRulePattern,
  type OperatorBlockEntry,
  prepareFiltering,
  ruleMatches,
} from '../src/index.js';

function profile(rules: Partial<FilteringProfile['rules']> = {}, overrides: Partial<FilteringProfile> = {}) {
  return {
    filtering: true,
    settings: { block_mode: 'nxdomain' as const },
    rules: { deny: [], allow: [], rewrites: [], ...rules },
    ...overrides,
  };
}

function listOf(text: string, format: 'hosts' | 'domains' | 'adblock' = 'domains'): DomainSet {
  const compiler = new ListCompiler(format);
  compiler.pushText(text);
  return DomainSet.fromArtifact(Buffer.concat([...compiler.finish().chunks()]));
}

function decide(inputs: FilteringInputs, name: string, clientIp?: string, at?: number) {
  return decideQuery(prepareFiltering(inputs), {
    name,
    ...(clientIp === undefined ? {} : { clientIp }),
    ...(at === undefined ? {} : { at }),
  });
}

const operatorBlock = (pattern: string, overrides: Partial<OperatorBlockEntry> = {}): OperatorBlockEntry => ({
  pattern,
  reason_code: 'legal_order',
  public_ref: 'Court order 42',
  pops: [],
  jurisdictions: [],
  expires_at: null,
  ...overrides,
});

/**
 * Spec 2.4: `example.com` covers the name and every name under it, `=example.com` only the name,
 * `*.example.com` only what is under it; label boundaries always; names compared as DNS compares them.
 */
const PATTERN_TABLE: [pattern: string, name: string, covered: boolean][] = [
  ['example.com', 'example.com', true],
  ['example.com', 'www.example.com', true],
  ['example.com', 'a.b.c.example.com', true],
  ['example.com', 'EXAMPLE.com.', true],
  ['example.com', 'notexample.com', false],
  ['example.com', 'example.com.evil', false],
  ['example.com', 'com', false],
  ['example.com', 'example.org', false],
  ['=example.com', 'example.com', true],
  ['=example.com', 'Example.Com.', true],
  ['=example.com', 'www.example.com', false],
  ['=example.com', 'notexample.com', false],
  ['*.example.com', 'example.com', false],
  ['*.example.com', 'www.example.com', true],
  ['*.example.com', 'deep.www.example.com', true],
  ['*.example.com', 'wwwexample.com', false],
  ['*.zip', 'zip', false],
  ['*.zip', 'files.zip', true],
  ['local', 'printer.local', true],
  ['local', 'local', true],
  ['xn--bcher-kva.example', 'www.xn--bcher-kva.example', true],
  ['_dmarc.example.com', '_dmarc.example.com', true],
  ['4.3.2.1.in-addr.arpa', '4.3.2.1.in-addr.arpa', true],
];

describe(decideQuery.name, () => {
  describe('spec 2.4 pattern semantics, for every kind of rule', () => {
    it.each(PATTERN_TABLE)('deny %s covers %s: %s', (pattern, name, covered) => {
      const decision = decide({ profile: profile({ deny: [pattern] }) }, name);
      expect(decision.action).toBe(covered ? 'block' : 'forward');
      if (covered) expect(decision).toMatchObject({ reason: 'deny_rule', rule: pattern, ede: 17 });
    });

    it.each(PATTERN_TABLE)('allow %s covers %s: %s', (pattern, name, covered) => {
      // A deny rule on the very name: only the allow rule can let it through.
      const exactly = normaliseRulePattern(`=${name.replace(/\.$/, '')}`);
      if (!exactly.ok) throw new Error(exactly.message);
      const decision = decide({ profile: profile({ allow: [pattern], deny: [exactly.pattern] }) }, name);
      expect(decision.action).toBe(covered ? 'allow' : 'block');
    });

    it.each(PATTERN_TABLE)('rewrite %s covers %s: %s', (pattern, name, covered) => {
      const decision = decide({ profile: profile({ rewrites: [{ pattern, answer: '192.0.2.7' }] }) }, name);
      expect(decision.action).toBe(covered ? 'rewrite' : 'forward');
    });

    it.each(PATTERN_TABLE)('operator block %s covers %s: %s', (pattern, name, covered) => {
      const decision = decide({ profile: profile(), operatorBlocks: [operatorBlock(pattern)] }, name);
      expect(decision.action).toBe(covered ? 'block' : 'forward');
    });

    it('agrees with ruleMatches on generated patterns and names', () => {
      const label = fc.constantFrom('a', 'b', 'ex', 'com', 'Ab', 'x-y', '_s');
      const name = fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.'));
      const pattern = fc
        .tuple(fc.constantFrom('', '=', '*.'), name)
        .map(([prefix, base]) => `${prefix}${base.toLowerCase()}`);
      fc.assert(
        fc.property(pattern, name, fc.boolean(), (rule, query, dot) => {
          const asked = dot ? `${query}.` : query;
          const decision = decide({ profile: profile({ deny: [rule] }) }, asked);
          return (decision.action === 'block') === ruleMatches(rule, asked);
        }),
        { numRuns: 2000 },
      );
    });
  });

  describe('order of decisions', () => {
    const everything: FilterList = {
      listId: 3,
      kind: 'list',
      name: 'OISD big',
      set: listOf('||ads.example^\n||both.example^\n', 'adblock'),
    };

    it('an operator block answers NXDOMAIN with EDE 15 even where the profile allows the name', () => {
      const decision = decide(
        {
          profile: profile({
            allow: ['court.example'],
            rewrites: [{ pattern: 'court.example', answer: '192.0.2.1' }],
          }),
          operatorBlocks: [
            operatorBlock('court.example', { reason_code: 'legal_order', public_ref: 'Order 7' }),
          ],
        },
        'www.court.example',
      );
      expect(decision).toMatchObject({
        action: 'block',
        reason: 'operator_block',
        status: 'blocked',
        blockMode: 'nxdomain',
        ede: 15,
        edeText: 'Order 7',
        operatorCode: 'legal_order',
        rule: 'court.example',
      });
    });

    it('an operator block applies to a suspended profile, which otherwise filters nothing', () => {
      const inputs = {
        profile: profile({ deny: ['ads.example'] }, { filtering: false }),
        lists: [everything],
        operatorBlocks: [operatorBlock('csam.example', { reason_code: 'csam' })],
      };
      expect(decide(inputs, 'csam.example').ede).toBe(15);
      expect(decide(inputs, 'ads.example').action).toBe('forward');
    });

    it('an operator block ignores the profile block mode (always NXDOMAIN)', () => {
      const decision = decide(
        {
          profile: { ...profile(), settings: { block_mode: 'block-page' } },
          operatorBlocks: [operatorBlock('x.example')],
        },
        'x.example',
      );
      expect(decision.blockMode).toBe('nxdomain');
    });

    it('applies operator entries only in their scope and before their expiry', () => {
      const blocks = [
        operatorBlock('fra.example', { pops: ['fra1'] }),
        operatorBlock('de.example', { jurisdictions: ['DE'] }),
        operatorBlock('nodes.example', { pops: ['node'] }),
        operatorBlock('brief.example', { expires_at: '2026-01-01T00:00:00.000Z' }),
      ];
      const atNode = { profile: profile(), operatorBlocks: blocks };
      const atFrankfurt = { ...atNode, location: { pop: 'fra1', jurisdictions: ['DE', 'EU'] } };
      expect(decide(atNode, 'fra.example').action).toBe('forward');
      expect(decide(atFrankfurt, 'fra.example').action).toBe('block');
      expect(decide(atNode, 'de.example').action).toBe('forward');
      expect(decide(atFrankfurt, 'de.example').action).toBe('block');
      expect(decide(atNode, 'nodes.example').action).toBe('block');
      expect(decide(atFrankfurt, 'nodes.example').action).toBe('forward');
      expect(decide(atNode, 'brief.example', undefined, Date.parse('2025-12-31T23:59:59Z')).action).toBe(
        'block',
      );
      expect(decide(atNode, 'brief.example', undefined, Date.parse('2026-01-01T00:00:00Z')).action).toBe(
        'forward',
      );
    });

    it('refuses a source block’s clients (IPv4, IPv4-mapped and IPv6) with EDE 15', () => {
      const inputs = {
        profile: profile(),
        sourceBlocks: [
          { cidr: '203.0.113.0/24', pops: [], jurisdictions: [], expires_at: null },
          { cidr: '2001:db8:bad::/48', pops: [], jurisdictions: [], expires_at: null },
        ],
      };
      for (const client of ['203.0.113.9', '::ffff:203.0.113.200', '2001:db8:bad:1::5']) {
        expect(decide(inputs, 'example.com', client)).toMatchObject({
          reason: 'source_block',
          blockMode: 'refused',
          ede: 15,
        });
      }
      for (const client of ['203.0.114.1', '2001:db8:bae::1', '', 'not-an-address']) {
        expect(decide(inputs, 'example.com', client).action).toBe('forward');
      }
    });

    it('an allow rule wins over deny rules, lists and rewrites', () => {
      const decision = decide(
        {
          profile: profile({
            allow: ['both.example'],
            deny: ['both.example'],
            rewrites: [{ pattern: 'both.example', answer: '192.0.2.1' }],
          }),
          lists: [everything],
        },
        'both.example',
      );
      expect(decision).toMatchObject({ action: 'allow', status: 'allowed', reason: 'allow_rule', ede: 0 });
    });

    it('an allow rule alone wins over the list that lists the name, for the name and below it', () => {
      const listed = { ...everything, set: listOf('||ok.example^\n||other.example^\n', 'adblock') };
      const inputs = { profile: profile({ allow: ['ok.example'] }), lists: [listed] };
      for (const name of ['ok.example', 'www.ok.example'])
        expect(decide(inputs, name)).toMatchObject({ action: 'allow', reason: 'allow_rule' });
      expect(decide(inputs, 'other.example')).toMatchObject({ action: 'block', reason: 'list' });
    });

    it('a deny rule decides before a list, a list before a rewrite', () => {
      const inputs = {
        profile: profile({
          deny: ['=both.example'],
          rewrites: [
            { pattern: 'ads.example', answer: '192.0.2.1' },
            { pattern: 'home.example', answer: '192.0.2.2' },
          ],
        }),
        lists: [everything],
      };
      expect(decide(inputs, 'both.example')).toMatchObject({ reason: 'deny_rule', listId: null });
      expect(decide(inputs, 'ads.example')).toMatchObject({
        reason: 'list',
        listId: 3,
        ede: 17,
        edeText: 'OISD big',
        blockMode: 'nxdomain',
      });
      expect(decide(inputs, 'home.example')).toMatchObject({
        action: 'rewrite',
        status: 'rewritten',
        rewrites: [{ type: 'A', data: '192.0.2.2' }],
      });
    });

    it('names the first list by kind (enabled, parental, security) then list id', () => {
      const set = listOf('shared.example\n');
      const decision = decide(
        {
          profile: profile(),
          lists: [
            { listId: 7, kind: 'security', name: 'TIF', set },
            { listId: 20001, kind: 'parental', name: 'YouTube', set },
            { listId: 9, kind: 'list', name: 'Nine', set },
            { listId: 4, kind: 'list', name: 'Four', set },
          ],
        },
        'shared.example',
      );
      expect(decision).toMatchObject({ listId: 4, reason: 'list', edeText: 'Four' });
    });

    it('blocks with the profile block mode', () => {
      for (const mode of ['nxdomain', 'refused', 'null', 'block-page'] as const) {
        const decision = decide(
          { profile: { ...profile({ deny: ['ads.example'] }), settings: { block_mode: mode } } },
          'ads.example',
        );
        expect(decision.blockMode).toBe(mode);
      }
    });

    it('the first deny rule in stored order names the block', () => {
      const decision = decide({ profile: profile({ deny: ['*.example', 'ads.example'] }) }, 'x.ads.example');
      expect(decision.rule).toBe('*.example');
    });

    it('answers every rewrite of the first pattern: A, AAAA and CNAME', () => {
      const decision = decide(
        {
          profile: profile({
            rewrites: [
              { pattern: 'home.example', answer: '192.0.2.1' },
              { pattern: 'other.example', answer: '192.0.2.9' },
              { pattern: 'home.example', answer: '2001:db8::1' },
              { pattern: 'home.example', answer: 'target.example' },
            ],
          }),
        },
        'home.example',
      );
      expect(decision.rewrites).toEqual([
        { type: 'A', data: '192.0.2.1' },
        { type: 'AAAA', data: '2001:db8::1' },
        { type: 'CNAME', data: 'target.example' },
      ]);
    });

    it('forwards the root and names no rule covers', () => {
      const inputs = { profile: profile({ deny: ['example.com'] }), lists: [everything] };
      expect(decide(inputs, '.').action).toBe('forward');
      expect(decide(inputs, '').action).toBe('forward');
      expect(decide(inputs, 'example.org').action).toBe('forward');
    });

    it('decides a name of more labels than any name can have without failing', () => {
      const long = `${Array.from({ length: 200 }, () => 'a').join('.')}.ads.example`;
      expect(decide({ profile: profile(), lists: [everything] }, long).listId).toBe(3);
    });
  });
});
