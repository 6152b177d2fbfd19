import { DomainError } from '@svc/domain';
import { describe, expect, it } from 'vitest';
import { etagOf, versionFromIfMatch } from '../src/http/etag.js';

describe('ETag and If-Match (spec 2.3)', () => {
  it('quotes the version as a strong ETag, which If-Match reads back', () => {
    expect(etagOf(3)).toBe('"3"');
    expect(versionFromIfMatch(etagOf(3))).toBe(3);
    expect(versionFromIfMatch(' "42" ')).toBe(42);
    expect(versionFromIfMatch(['"7"'])).toBe(7);
  });

  it('reads no version without the header', () => {
    expect(versionFromIfMatch(undefined)).toBeUndefined();
  });

  it.each([
    ['a weak tag', 'W/"3"'],
    ['a list', '"3", "4"'],
    ['the wildcard', '*'],
    ['an unquoted version', '3'],
    ['a version past 15 digits', '"1234567890123456"'],
    ['a negative version', '"-1"'],
    ['an empty header', ''],
    ['two header lines', ['"3"', '"4"']],
  ])('refuses %s with 400 bad_if_match', (_name, header) => {
    let thrown: unknown;
    try {
      versionFromIfMatch(header);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DomainError);
    expect(thrown).toMatchObject({ code: 'bad_if_match' });
  });
});
