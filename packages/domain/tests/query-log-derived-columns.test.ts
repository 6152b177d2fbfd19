import { describe, expect, it } from 'vitest';
import { type DecisionFields, deriveColumns } from '../src/index.js';

const allowed: DecisionFields = {
  status: 'allowed',
  reasonListId: null,
  reasonListName: '',
  reasonRule: '',
  operatorCode: '',
};

describe(deriveColumns.name, () => {
  it('allowed and failed queries: reason_code none, no EDE (spec 2.11)', () => {
    expect(deriveColumns(allowed)).toEqual({ reason: '', reasonCode: 'none', edeCode: 0, edeText: '' });
    expect(deriveColumns({ ...allowed, status: 'error', reasonRule: 'x.example' })).toEqual({
      reason: '',
      reasonCode: 'none',
      edeCode: 0,
      edeText: '',
    });
  });

  it('a list block: the list name, EDE 17 with the reason as text', () => {
    expect(
      deriveColumns({
        ...allowed,
        status: 'blocked',
        reasonListId: 4,
        reasonListName: 'Trackers',
        reasonRule: '',
      }),
    ).toEqual({ reason: 'Trackers', reasonCode: 'list', edeCode: 17, edeText: 'Trackers' });
  });

  it('a rule block: the rule text, EDE 17; empty when domain logging blanked it', () => {
    expect(deriveColumns({ ...allowed, status: 'blocked', reasonRule: '*.ads.example' })).toEqual({
      reason: '*.ads.example',
      reasonCode: 'rule',
      edeCode: 17,
      edeText: '*.ads.example',
    });
    expect(deriveColumns({ ...allowed, status: 'blocked' })).toEqual({
      reason: '',
      reasonCode: 'rule',
      edeCode: 17,
      edeText: '',
    });
  });

  it('an operator block: operator:<code>, EDE 15, even when a list also matched', () => {
    for (const code of ['legal_order', 'abuse', 'csam'] as const) {
      expect(
        deriveColumns({
          ...allowed,
          status: 'blocked',
          reasonListId: 1,
          reasonListName: 'A list',
          reasonRule: 'Blocked by court order 12',
          operatorCode: code,
        }),
      ).toEqual({
        reason: 'Blocked by court order 12',
        reasonCode: `operator:${code}`,
        edeCode: 15,
        edeText: 'Blocked by court order 12',
      });
    }
  });

  it('a rewrite: the rule text with a = prefix (spec 2.4), no EDE', () => {
    expect(deriveColumns({ ...allowed, status: 'rewritten', reasonRule: 'printer.home.arpa' })).toEqual({
      reason: '=printer.home.arpa',
      reasonCode: 'rewrite',
      edeCode: 0,
      edeText: '',
    });
    expect(deriveColumns({ ...allowed, status: 'rewritten' }).reason).toBe('');
  });

  it('a rewrite by an exact-form rule: its own = is the prefix, never doubled', () => {
    expect(deriveColumns({ ...allowed, status: 'rewritten', reasonRule: '=printer.home.arpa' }).reason).toBe(
      '=printer.home.arpa',
    );
    expect(deriveColumns({ ...allowed, status: 'rewritten', reasonRule: '*.home.arpa' }).reason).toBe(
      '=*.home.arpa',
    );
  });
});
