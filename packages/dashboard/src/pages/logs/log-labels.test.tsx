import { describe, expect, it } from 'vitest';
import { policyLabel, reasonWithPolicy } from './log-labels.js';

describe(reasonWithPolicy.name, () => {
  const row = { reason: 'StevenBlack', reason_code: 'list', reason_rule: '' };

  it('shows the reason alone when no policy decided', () => {
    expect(reasonWithPolicy({ ...row, decided_by: '' })).toBe('StevenBlack');
  });

  it('adds the policy in words after the reason (a list a schedule limits)', () => {
    expect(reasonWithPolicy({ ...row, decided_by: 'schedule:homework' })).toBe(
      'StevenBlack · Schedule homework (bedtime or a limit it sets)',
    );
  });

  it('shows the policy alone when the row has no reason (a paused profile)', () => {
    expect(reasonWithPolicy({ ...row, reason: '', reason_code: 'none', decided_by: 'paused' })).toBe(
      'Paused: the profile’s filtering was paused',
    );
  });
});

describe(policyLabel.name, () => {
  it('shows a value a newer server adds as it came', () => {
    expect(policyLabel('quota')).toBe('quota');
  });
});
