import { describe, expect, it } from 'vitest';
import { carriedPolicy } from './schedules.queries.js';

const window = { days: ['mon' as const], start: '20:00', end: '07:00' };
const current = {
  bedtime: 'night',
  assignments: [
    { target: { kind: 'service' as const, id: 'youtube' }, schedule: 'night', mode: 'only_during' as const },
    { target: { kind: 'list' as const, id: 3 }, schedule: 'homework', mode: 'lifted_during' as const },
  ],
};

describe('what a schedules save keeps of the bedtime and assignments', () => {
  it('keeps them unchanged when their schedules stay', () => {
    const kept = carriedPolicy(current, [
      { name: 'night', windows: [window] },
      { name: 'homework', windows: [window] },
    ]);
    expect(kept).toEqual(current);
  });

  it('follows a renamed schedule', () => {
    const kept = carriedPolicy(
      current,
      [
        { name: 'bedtime', windows: [window] },
        { name: 'homework', windows: [window] },
      ],
      { from: 'night', to: 'bedtime' },
    );
    expect(kept.bedtime).toBe('bedtime');
    expect(kept.assignments.map((assignment) => assignment.schedule)).toEqual(['bedtime', 'homework']);
  });

  it('drops what named a deleted schedule, which the API would refuse', () => {
    const kept = carriedPolicy(current, [{ name: 'homework', windows: [window] }]);
    expect(kept.bedtime).toBeNull();
    expect(kept.assignments).toEqual([current.assignments[1]]);
  });
});
