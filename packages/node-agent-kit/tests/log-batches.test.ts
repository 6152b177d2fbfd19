import { describe, expect, it } from 'vitest';
import {
  LOG_BATCH_MAX_ROWS,
  LogBatchRejectedError,
  logBatchMessage,
  splitLogBatch,
} from '../src/log-batches.js';

const MAX = 4_096;
const row = (index: number, padding = 40) => ({
  row_id: String(index),
  qname: `${'a'.repeat(padding)}.example.`,
});

describe(splitLogBatch.name, () => {
  it('keeps a batch that fits as one message under its own id', () => {
    const rows = [row(1), row(2)];
    expect(splitLogBatch('small', rows, MAX)).toEqual([{ id: 'small', rows, firstRow: 0 }]);
  });

  it('splits a larger batch into numbered parts that each fit, rows in order, none lost', () => {
    const rows = Array.from({ length: 300 }, (_, index) => row(index));
    const parts = splitLogBatch('large', rows, MAX);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.map((part) => part.id)).toEqual(parts.map((_, index) => `large.${index}`));
    for (const part of parts)
      expect(Buffer.byteLength(logBatchMessage(part.id, part.rows))).toBeLessThanOrEqual(MAX);
    expect(parts.flatMap((part) => part.rows)).toEqual(rows);
    expect(parts.map((part) => part.firstRow)).toEqual(
      parts.map((_, index) => parts.slice(0, index).reduce((total, part) => total + part.rows.length, 0)),
    );
    // The same rows give the same parts: a resend under the same id is answered `duplicate` part by part.
    expect(splitLogBatch('large', rows, MAX)).toEqual(parts);
  });

  it('splits at 10,000 rows even when the bytes would fit', () => {
    const rows = Array.from({ length: LOG_BATCH_MAX_ROWS + 1 }, (_, index) => ({ i: index }));
    const parts = splitLogBatch('many', rows, 10 * 1_048_576);
    expect(parts.map((part) => part.rows.length)).toEqual([LOG_BATCH_MAX_ROWS, 1]);
  });

  it('names the parts of a batch whose id leaves no room for a suffix by its digest, within 64 characters', () => {
    const id = 'i'.repeat(64);
    const parts = splitLogBatch(
      id,
      Array.from({ length: 300 }, (_, index) => row(index)),
      MAX,
    );
    for (const part of parts) {
      expect(part.id).toMatch(/^[0-9a-f]{40}\.\d+$/);
      expect(part.id.length).toBeLessThanOrEqual(64);
    }
  });

  it('refuses a row that fits in no message, naming it', () => {
    const rows = [row(1), row(2, MAX)];
    const refused = (() => {
      try {
        return splitLogBatch('huge-row', rows, MAX);
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(LogBatchRejectedError);
    expect(refused).toMatchObject({ reason: 'row_too_large', errors: [{ row: 1 }] });
  });
});
