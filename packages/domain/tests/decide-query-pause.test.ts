import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DomainSet,
  decideQuery,
  type FilteringInputs,
  type FilteringProfile,
  ListCompiler,
  loggedDecision,
  type OperatorBlockEntry,
  prepareFiltering,
  ruleMatches,
} from '../src/index.js';

const PAUSE_END = '2026-11-28T12:00:00.000Z';
const END = Date.parse(PAUSE_END);

function listOf(names: readonly string[]): DomainSet {
  const compiler = new ListCompiler('domains');
  compiler.pushText(`${names.join('\n')}\n`);
  return DomainSet.fromArtifact(Buffer.concat([...compiler.finish().chunks()]));
}

function profile(overrides: Partial<FilteringProfile> = {}): FilteringProfile {
  return {
    filtering: true,
    paused_until: PAUSE_END,
    settings: { block_mode: 'nxdomain' },
    rules: {
      deny: ['denied.example'],
      allow: ['allowed.example'],
      rewrites: [{ pattern: 'printer.home', answer: '192.168.1.9' }],
    },
    ...overrides,
  };
}

const operatorBlock = (pattern: string): OperatorBlockEntry => ({
  pattern,
  reason_code: 'csam',
  public_ref: 'Operator block 7',
  pops: [],
  jurisdictions: [],
  expires_at: null,
});

function inputs(overrides: Partial<FilteringProfile> = {}): FilteringInputs {
  return {
    profile: profile(overrides),
    lists: [
      { listId: 3, kind: 'list', name: 'Ads', set: listOf(['ads.example']) },
      { listId: 900, kind: 'parental', name: 'Games', set: listOf(['games.example']) },
      { listId: 950, kind: 'security', name: 'Malware', set: listOf(['malware.example']) },
    ],
    operatorBlocks: [operatorBlock('forbidden.example')],
    sourceBlocks: [{ cidr: '203.0.113.0/24', pops: [], jurisdictions: [], expires_at: null }],
  };
}

const decideAt = (filtering: FilteringInputs, name: string, at: number, clientIp = '192.0.2.10') =>
  decideQuery(prepareFiltering(filtering), { name, clientIp, at });

describe(`${decideQuery.name}: the owner's timed pause (issue 38)`, () => {
  const during = END - 60_000;

  it('turns the profile’s own blocking off: deny rules, lists, parental and security forward as paused', () => {
    for (const name of ['denied.example', 'ads.example', 'games.example', 'www.malware.example']) {
      const decision = decideAt(inputs(), name, during);
      expect(decision).toMatchObject({ action: 'forward', reason: 'paused', status: 'allowed', ede: 0 });
      expect(decision.blockMode).toBeNull();
    }
    expect(decideAt(inputs(), 'unlisted.example', during).reason).toBe('paused');
    expect(decideAt(inputs(), 'allowed.example', during).reason).toBe('paused');
  });

  it('keeps answering the profile’s rewrites: a pause is filtering off, not the profile off', () => {
    const decision = decideAt(inputs(), 'printer.home', during);
    expect(decision).toMatchObject({ action: 'rewrite', reason: 'rewrite', status: 'rewritten' });
    expect(decision.rewrites).toEqual([{ type: 'A', data: '192.168.1.9' }]);
  });

  it('keeps operator blocks and source blocks, which no owner can pause', () => {
    expect(decideAt(inputs(), 'forbidden.example', during)).toMatchObject({
      reason: 'operator_block',
      ede: 15,
      blockMode: 'nxdomain',
    });
    expect(decideAt(inputs(), 'ads.example', during, '203.0.113.7')).toMatchObject({
      reason: 'source_block',
      blockMode: 'refused',
    });
  });

  it('ends exactly at paused_until (end exclusive), by the query’s own time', () => {
    expect(decideAt(inputs(), 'ads.example', END - 1).reason).toBe('paused');
    expect(decideAt(inputs(), 'ads.example', END)).toMatchObject({ reason: 'list', listId: 3, ede: 17 });
    expect(decideAt(inputs(), 'denied.example', END + 1).reason).toBe('deny_rule');
    expect(decideAt(inputs(), 'allowed.example', END).reason).toBe('allow_rule');
  });

  it('one prepared context pauses and filters again as the queries’ times pass the end', () => {
    const context = prepareFiltering(inputs());
    expect(decideQuery(context, { name: 'ads.example', at: during }).reason).toBe('paused');
    expect(decideQuery(context, { name: 'ads.example', at: END }).reason).toBe('list');
    expect(decideQuery(context, { name: 'ads.example', at: during }).reason).toBe('paused');
  });

  it('a suspended profile stays unfiltered whether paused or not, and its operator blocks still apply', () => {
    const suspended = inputs({ filtering: false });
    expect(decideAt(suspended, 'ads.example', during)).toMatchObject({ action: 'forward', reason: 'none' });
    expect(decideAt(suspended, 'forbidden.example', during).reason).toBe('operator_block');
  });

  it('filters as usual without a pause, with an unreadable one, or with one that has passed', () => {
    for (const paused_until of [null, undefined, 'not a time', '2026-11-28T11:00:00.000Z']) {
      expect(decideAt(inputs({ paused_until }), 'ads.example', during).reason).toBe('list');
    }
  });

  it('logs a paused query as allowed, with no list, rule or operator code, decided by the pause', () => {
    const decision = decideAt(inputs(), 'ads.example', during);
    expect(loggedDecision(decision)).toEqual({
      listId: null,
      listName: '',
      rule: '',
      operatorCode: '',
      decidedBy: 'paused',
    });
  });

  it('agrees with a reference implementation for any rules, pause and time', () => {
    const label = fc.constantFrom('a', 'b', 'c');
    const name = fc
      .tuple(fc.constantFrom('', 'x.', 'y.x.'), label)
      .map(([prefix, tail]) => `${prefix}${tail}.test`);
    const pattern = fc.tuple(fc.constantFrom('', '=', '*.'), name).map(([form, base]) => `${form}${base}`);
    fc.assert(
      fc.property(
        fc.record({
          deny: fc.array(pattern, { maxLength: 3 }),
          allow: fc.array(pattern, { maxLength: 3 }),
          rewrites: fc.array(pattern, { maxLength: 3 }),
          operator: fc.array(pattern, { maxLength: 2 }),
          listed: fc.array(name, { maxLength: 3 }),
          pauseOffset: fc.option(fc.integer({ min: -3, max: 3 }), { nil: null }),
          query: name,
        }),
        (world) => {
          const at = END;
          const pausedUntil =
            world.pauseOffset === null ? null : new Date(at + world.pauseOffset).toISOString();
          const decision = decideAt(
            {
              profile: {
                filtering: true,
                paused_until: pausedUntil,
                settings: { block_mode: 'refused' },
                rules: {
                  deny: world.deny,
                  allow: world.allow,
                  rewrites: world.rewrites.map((rewrite) => ({ pattern: rewrite, answer: '192.0.2.1' })),
                },
              },
              lists: [{ listId: 1, kind: 'list', name: 'L', set: listOf(world.listed) }],
              operatorBlocks: world.operator.map(operatorBlock),
            },
            world.query,
            at,
          );
          const covers = (patterns: readonly string[]) => patterns.some((p) => ruleMatches(p, world.query));
          // A domains-format list holds exact names.
          const listed = world.listed.some((entry) => ruleMatches(`=${entry}`, world.query));
          const paused = world.pauseOffset !== null && world.pauseOffset > 0;
          let expected: string;
          if (covers(world.operator)) expected = 'operator_block';
          else if (paused) expected = covers(world.rewrites) ? 'rewrite' : 'paused';
          else if (covers(world.allow)) expected = 'allow_rule';
          else if (covers(world.deny)) expected = 'deny_rule';
          else if (listed) expected = 'list';
          else if (covers(world.rewrites)) expected = 'rewrite';
          else expected = 'none';
          expect(decision.reason).toBe(expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});
