import { createHash } from 'node:crypto';
import { sha256RunningDigest } from '@svc/adapters';
import { ArchiveChunkWriter, DataExportClaimLost } from '@svc/domain';
import { describe, expect, it } from 'vitest';

/** A writer of `chunkBytes` chunks whose sink keeps them (or refuses from chunk `refuseFrom` on). */
function writerOf(chunkBytes: number, refuseFrom = Number.POSITIVE_INFINITY) {
  const stored: Buffer[] = [];
  const writer = new ArchiveChunkWriter('export-1', chunkBytes, sha256RunningDigest(), async (seq, bytes) => {
    if (seq >= refuseFrom) return false;
    expect(seq).toBe(stored.length);
    stored.push(Buffer.from(bytes));
    return true;
  });
  return { writer, stored };
}

describe(ArchiveChunkWriter.name, () => {
  it('cuts the lines into chunks of exactly chunkBytes, splitting characters and lines, and keeps the last back', async () => {
    const { writer, stored } = writerOf(7);
    const lines = ['{"a":"é"}', 'Zoë', '', '🙂🙂'];
    for (const line of lines) await writer.writeLine(line);
    const expected = Buffer.from(lines.map((line) => `${line}\n`).join(''), 'utf8');
    const last = writer.finish();
    expect(stored.every((chunk) => chunk.length === 7)).toBe(true);
    expect(last.seq).toBe(stored.length);
    expect(last.bytes.length).toBeGreaterThan(0);
    expect(last.bytes.length).toBeLessThanOrEqual(7);
    expect(Buffer.concat([...stored, Buffer.from(last.bytes)]).equals(expected)).toBe(true);
    expect(last.archive).toEqual({
      chunkCount: stored.length + 1,
      sizeBytes: expected.length,
      sha256: createHash('sha256').update(expected).digest('hex'),
    });
  });

  it('holds back a last chunk that is exactly full, so the export turns ready with it', async () => {
    const { writer, stored } = writerOf(4);
    await writer.writeLine('abc');
    await writer.writeLine('def');
    const last = writer.finish();
    expect(stored.map((chunk) => chunk.toString())).toEqual(['abc\n']);
    expect(Buffer.from(last.bytes).toString()).toBe('def\n');
    expect(last.archive.chunkCount).toBe(2);
  });

  it('stops with DataExportClaimLost once the store refuses a chunk (the export was claimed again)', async () => {
    const { writer, stored } = writerOf(4, 1);
    await writer.writeLine('abc');
    await expect(writer.writeLine('defghi')).rejects.toBeInstanceOf(DataExportClaimLost);
    expect(stored.map((chunk) => chunk.toString())).toEqual(['abc\n']);
  });
});
