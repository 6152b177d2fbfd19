import { describe, expect, it } from 'vitest';
import { Lifecycle } from '../src/lifecycle.js';

/** A service that records what happened to it, in one shared journal. */
function service(name: string, journal: string[], failStop = false) {
  return {
    start: () => {
      journal.push(`start ${name}`);
    },
    stop: async () => {
      journal.push(`stop ${name}`);
      if (failStop) throw new Error(`${name} would not stop`);
    },
  };
}

describe(Lifecycle.name, () => {
  it('starts a service when told to, and stops it at shutdown in reverse order with what it owns', async () => {
    const journal: string[] = [];
    const sut = new Lifecycle();
    sut.own('store', 'pool', async () => {
      journal.push('close store');
    });
    const first = service('first', journal);
    expect(await sut.start('first', first)).toBe(first);
    await sut.start('second', service('second', journal));
    expect(journal).toEqual(['start first', 'start second']);
    expect(await sut.closeAll()).toEqual([]);
    expect(journal).toEqual(['start first', 'start second', 'stop second', 'stop first', 'close store']);
  });

  it('names a service that failed to stop, and still stops the others', async () => {
    const journal: string[] = [];
    const sut = new Lifecycle();
    await sut.start('first', service('first', journal));
    await sut.start('stuck', service('stuck', journal, true));
    const failures = await sut.closeAll();
    expect(failures.map((failure) => failure.name)).toEqual(['stuck']);
    expect(journal).toEqual(['start first', 'start stuck', 'stop stuck', 'stop first']);
  });
});
