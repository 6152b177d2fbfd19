import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_NAME_LABELS, nameKey, SuffixKeys } from '../src/filtering/name-key.js';

/**
 * The label-boundary suffixes of a name the slow way: whole name first, one trailing dot left out, no empty
 * suffix.
 */
function suffixesOf(name: string): string[] {
  const trimmed = name.endsWith('.') ? name.slice(0, -1) : name;
  if (trimmed === '') return [];
  const suffixes = [trimmed];
  for (let index = 0; index < trimmed.length; index += 1)
    if (trimmed[index] === '.' && index < trimmed.length - 1) suffixes.push(trimmed.slice(index + 1));
  return suffixes;
}

/** The key of exactly `text` (nameKey leaves one trailing dot out). */
const keyOf = (text: string) => nameKey(`${text}.`);

function keysOf(name: string): Array<{ a: number; b: number }> {
  const keys = new SuffixKeys();
  const count = keys.of(name);
  expect(count).toBe(keys.count);
  return Array.from({ length: count }, (_, index) => ({
    a: keys.a[index] as number,
    b: keys.b[index] as number,
  }));
}

describe(SuffixKeys.name, () => {
  it('yields the key of every suffix that starts at a label boundary, the whole name first', () => {
    for (const name of [
      'ads.example.com',
      'ADS.Example.COM.',
      'com',
      'a..b',
      '.leading',
      'x.',
      'x..',
      '',
      '.',
      '..',
    ])
      expect(keysOf(name), name).toEqual(suffixesOf(name).map(keyOf));
  });

  it('agrees with nameKey on any name, whatever its dots and case', () => {
    const character = fc.constantFrom(...'abcXYZ09-_.'.split(''));
    fc.assert(
      fc.property(fc.array(character, { maxLength: 40 }), (characters) => {
        const name = characters.join('');
        expect(keysOf(name)).toEqual(suffixesOf(name).map(keyOf));
      }),
      { numRuns: 2_000 },
    );
  });

  it('keeps the rightmost suffixes of a name with too many labels, without the whole name', () => {
    const name = Array.from({ length: MAX_NAME_LABELS + 5 }, (_, index) => `l${index}`).join('.');
    const keys = keysOf(name);
    expect(keys).toHaveLength(MAX_NAME_LABELS + 1);
    expect(keys).toEqual(
      suffixesOf(name)
        .slice(-(MAX_NAME_LABELS + 1))
        .map(keyOf),
    );
  });

  it('reuses its arrays: a shorter name after a longer one leaves no stale suffix counted', () => {
    const keys = new SuffixKeys();
    keys.of('a.b.c.d.e');
    expect(keys.of('example.com')).toBe(2);
    expect([keys.a[1], keys.b[1]]).toEqual([keyOf('com').a, keyOf('com').b]);
  });
});
