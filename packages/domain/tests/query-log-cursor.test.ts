import { HmacKeyedHash } from '@svc/adapters';
import { CursorSealer, comparePositions, LogCursors } from '@svc/domain';
import { describe, expect, it } from 'vitest';

const hash = new HmacKeyedHash('a-test-secret-of-sufficient-length-0123456789');
const sut = new LogCursors(new CursorSealer(hash), (data) => hash.sha256(data));
const binding = { profileId: 'abc123', mode: 'search' as const, fingerprint: '[["phone"],["blocked"]]' };
const position = { ts: 1_795_400_000_123, rowId: '9223372036854775807' };

describe(LogCursors.name, () => {
  it('opens what it sealed, well under 512 characters', () => {
    const cursor = sut.seal(binding, position);
    expect(cursor.length).toBeLessThan(256);
    expect(sut.open(binding, cursor)).toEqual(position);
  });

  it('refuses a cursor of another profile, mode or filter set (400 invalid_cursor)', () => {
    const cursor = sut.seal(binding, position);
    for (const other of [
      { ...binding, profileId: 'zzz999' },
      { ...binding, mode: 'tail' as const },
      { ...binding, fingerprint: '[["phone"],["allowed"]]' },
    ]) {
      expect(() => sut.open(other, cursor)).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
    }
  });

  it('refuses every single-character change and anything over 512 characters', () => {
    const cursor = sut.seal(binding, position);
    for (let index = 0; index < cursor.length; index += 1) {
      const changed = `${cursor.slice(0, index)}${cursor[index] === 'A' ? 'B' : 'A'}${cursor.slice(index + 1)}`;
      expect(() => sut.open(binding, changed), `position ${index}`).toThrow(
        expect.objectContaining({ code: 'invalid_cursor' }),
      );
    }
    expect(() => sut.open(binding, `${cursor}${'A'.repeat(513 - cursor.length)}`)).toThrow(
      expect.objectContaining({ code: 'invalid_cursor' }),
    );
  });
});

describe(comparePositions.name, () => {
  it('orders by time, then by row id as a number', () => {
    expect(comparePositions({ ts: 1, rowId: '9' }, { ts: 1, rowId: '10' })).toBeLessThan(0);
    expect(comparePositions({ ts: 2, rowId: '1' }, { ts: 1, rowId: '10' })).toBeGreaterThan(0);
    expect(comparePositions({ ts: 1, rowId: '5' }, { ts: 1, rowId: '5' })).toBe(0);
  });
});
