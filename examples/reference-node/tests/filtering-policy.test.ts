import type { NodeProfileDocument } from '@svc/sdk';
import { describe, expect, it } from 'vitest';
import {
  type DecidedQuery,
  FilteringPolicy,
  normaliseQueryName,
  patternCovers,
  ruleReason,
} from '../src/index.js';
import { profileDocument } from './support/profile-document.js';

function policy(
  rules: NodeProfileDocument['rules'],
  overrides: { filtering?: boolean } = {},
): FilteringPolicy {
  return FilteringPolicy.of(profileDocument({ rules, ...overrides }));
}

/** A query for `name` as the resolver hands it to the decider (normalised). */
function asked(name: string): DecidedQuery {
  return { qname: normaliseQueryName(name), qtype: 1, clientIp: '192.0.2.1' };
}

describe(FilteringPolicy.name, () => {
  it('reads the three pattern forms on label boundaries (2.4)', () => {
    expect(patternCovers('example.com', 'example.com')).toBe(true);
    expect(patternCovers('example.com', 'a.b.example.com')).toBe(true);
    expect(patternCovers('example.com', 'notexample.com')).toBe(false);
    expect(patternCovers('=example.com', 'example.com')).toBe(true);
    expect(patternCovers('=example.com', 'www.example.com')).toBe(false);
    expect(patternCovers('*.example.com', 'www.example.com')).toBe(true);
    expect(patternCovers('*.example.com', 'example.com')).toBe(false);
  });

  it('lets allow win, then rewrites (all answers of the first pattern), then deny', () => {
    const decide = policy({
      deny: ['example.com', 'ads.test'],
      allow: ['ok.example.com'],
      rewrites: [
        { pattern: 'example.com', answer: '192.0.2.1' },
        { pattern: 'example.com', answer: '2001:db8::1' },
        { pattern: 'alias.test', answer: 'target.test' },
      ],
    });
    expect(decide.decide(asked('ok.example.com'))).toEqual({ action: 'forward' });
    expect(decide.decide(asked('www.example.com'))).toEqual({
      action: 'rewrite',
      reason: ruleReason('example.com'),
      answers: [
        { type: 'A', data: '192.0.2.1' },
        { type: 'AAAA', data: '2001:db8::1' },
      ],
    });
    expect(decide.decide(asked('alias.test'))).toMatchObject({
      answers: [{ type: 'CNAME', data: 'target.test' }],
    });
    expect(decide.decide(asked('x.ads.test'))).toEqual({
      action: 'block',
      blockMode: 'nxdomain',
      ede: { code: 17, text: 'ads.test' },
      reason: ruleReason('ads.test'),
    });
    expect(decide.decide(asked('other.test'))).toEqual({ action: 'forward' });
  });

  it('finds the first pattern in list order among a hundred thousand, whatever form covers the name', () => {
    const deny = Array.from({ length: 100_000 }, (_, index) => `host${index}.blocked.test`);
    deny.push('*.wide.test', '=exact.wide.test', 'wide.test');
    const decide = policy({ deny: ['late.test', ...deny, 'host7.blocked.test'], allow: [], rewrites: [] });
    expect(decide.decide(asked('a.HOST7.blocked.test.'))).toMatchObject({
      reason: { rule: 'host7.blocked.test' },
    });
    expect(decide.decide(asked('x.wide.test'))).toMatchObject({ reason: { rule: '*.wide.test' } });
    expect(decide.decide(asked('wide.test'))).toMatchObject({ reason: { rule: 'wide.test' } });
    expect(decide.decide(asked('exact.wide.test'))).toMatchObject({ reason: { rule: '*.wide.test' } });
    expect(decide.decide(asked('host100000.blocked.test'))).toEqual({ action: 'forward' });
    expect(decide.decide(asked('blocked.test'))).toEqual({ action: 'forward' });
  });

  it('allows every name of a profile that does not filter (suspended)', () => {
    const suspended = policy({ deny: ['ads.test'], allow: [], rewrites: [] }, { filtering: false });
    expect(suspended.decide(asked('ads.test'))).toEqual({ action: 'forward' });
  });
});
