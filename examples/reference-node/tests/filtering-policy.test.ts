import type { NodeProfileDocument } from '@svc/sdk';
import { describe, expect, it } from 'vitest';
import { FilteringPolicy, patternCovers } from '../src/index.js';
import { profileDocument } from './support/profile-document.js';

function policy(
  rules: NodeProfileDocument['rules'],
  overrides: { filtering?: boolean } = {},
): FilteringPolicy {
  return FilteringPolicy.of(profileDocument({ rules, ...overrides }));
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
    expect(decide.decide('OK.Example.com.')).toEqual({ status: 'allowed', rule: '' });
    expect(decide.decide('www.example.com')).toEqual({
      status: 'rewritten',
      rule: 'example.com',
      answers: [
        { type: 'A', data: '192.0.2.1' },
        { type: 'AAAA', data: '2001:db8::1' },
      ],
    });
    expect(decide.decide('alias.test')).toMatchObject({ answers: [{ type: 'CNAME', data: 'target.test' }] });
    expect(decide.decide('x.ads.test')).toEqual({ status: 'blocked', rule: 'ads.test' });
    expect(decide.decide('other.test')).toEqual({ status: 'allowed', rule: '' });
  });

  it('allows every name of a profile that does not filter (suspended)', () => {
    const suspended = policy({ deny: ['ads.test'], allow: [], rewrites: [] }, { filtering: false });
    expect(suspended.decide('ads.test')).toEqual({ status: 'allowed', rule: '' });
  });
});
