import { HmacKeyedHash } from '@svc/adapters';
import { CursorSealer, pageFrom } from '@svc/domain';
import { describe, expect, it } from 'vitest';

const sut = new CursorSealer(new HmacKeyedHash('a-test-secret-of-sufficient-length-0123456789'));

describe(CursorSealer.name, () => {
  it('opens what it sealed', () => {
    const cursor = sut.seal('profiles', { created_at: '2026-11-22T10:00:00.000Z', id: 'abc123' });
    expect(sut.open('profiles', cursor)).toEqual({ created_at: '2026-11-22T10:00:00.000Z', id: 'abc123' });
  });

  it('refuses a cursor sealed for another list', () => {
    const cursor = sut.seal('profiles', { id: 'abc123' });
    expect(() => sut.open('tokens', cursor)).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
  });

  it('refuses a cursor sealed under another secret', () => {
    const foreign = new CursorSealer(
      new HmacKeyedHash('another-secret-of-sufficient-length-9876543210'),
    ).seal('profiles', { id: 'x' });
    expect(() => sut.open('profiles', foreign)).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
  });

  it('refuses every single-character change', () => {
    const cursor = sut.seal('profiles', { id: 'abc123' });
    for (let index = 0; index < cursor.length; index += 1) {
      const replacement = cursor[index] === 'A' ? 'B' : 'A';
      const changed = `${cursor.slice(0, index)}${replacement}${cursor.slice(index + 1)}`;
      expect(() => sut.open('profiles', changed), `position ${index}`).toThrow(
        expect.objectContaining({ code: 'invalid_cursor' }),
      );
    }
  });

  it('refuses cursors over the length cap', () => {
    const cursor = sut.seal('logs', { id: 'x'.repeat(600) });
    expect(() => sut.open('logs', cursor, 512)).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
  });
});

describe(pageFrom.name, () => {
  it('returns limit rows and a cursor after the last when more exist, and none on the last page', () => {
    const rows = [1, 2, 3, 4].map((id) => ({ id }));
    const page = pageFrom(rows, 3, sut, 'n', (row) => ({ id: row.id }));
    expect(page.items).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(sut.open('n', page.nextCursor ?? '')).toEqual({ id: 3 });
    expect(pageFrom(rows.slice(0, 3), 3, sut, 'n', (row) => ({ id: row.id })).nextCursor).toBeNull();
  });
});
