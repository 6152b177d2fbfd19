import { type FileHandle, mkdir, open } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';

const BLOCK = 512;

function field(header: Buffer, start: number, length: number): string {
  const raw = header.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? length : end).toString('utf8');
}

/** The file or directory a header describes, inside `root`. */
function entryOf(header: Buffer, root: string): { path: string; type: 'file' | 'directory'; size: number } {
  const name = field(header, 0, 100);
  const prefix = field(header, 345, 155);
  // PGlite's dumpDataDir names entries from the data dir's root ("/PG_VERSION"): relative to `root`.
  const path = resolve(root, `./${prefix === '' ? name : `${prefix}/${name}`}`);
  const inside = relative(root, path);
  if (inside.startsWith('..') || isAbsolute(inside)) throw new Error(`archive entry ${name} leaves ${root}`);
  const flag = String.fromCharCode(header[156] ?? 0);
  if (flag !== '0' && flag !== '\0' && flag !== '5')
    throw new Error(`archive entry ${name} has type ${JSON.stringify(flag)}, not a file or directory`);
  const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8);
  return { path, type: flag === '5' ? 'directory' : 'file', size };
}

/**
 * Extracts a ustar archive read as a stream into `directory` (created): directories and regular files only,
 * written owner-only, as a data dir must be. Anything else (links, long-name extensions) is refused rather
 * than skipped, so that an archive this reader cannot reproduce exactly never yields a partial data dir.
 * File contents go to disk as they arrive: the archive is never whole in memory (40 MB for a data dir, and
 * memory the allocator keeps after it is freed).
 */
export async function extractTar(source: AsyncIterable<Buffer>, directory: string): Promise<void> {
  const root = resolve(directory);
  await mkdir(root, { recursive: true, mode: 0o700 });
  let pending: Buffer = Buffer.alloc(0);
  let file: FileHandle | undefined;
  let remaining = 0;
  let padding = 0;
  let ended = false;
  try {
    for await (const chunk of source) {
      // Past the end-of-archive block the rest (the record's zero padding) is read and dropped: leaving the
      // source unread would cut off whatever writes it.
      if (ended) continue;
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      for (;;) {
        if (file !== undefined) {
          const part = pending.subarray(0, Math.min(remaining, pending.length));
          for (let written = 0; written < part.length; )
            written += (await file.write(part, written)).bytesWritten;
          remaining -= part.length;
          pending = pending.subarray(part.length);
          if (remaining > 0) break;
          await file.close();
          file = undefined;
        }
        const skipped = Math.min(padding, pending.length);
        padding -= skipped;
        pending = pending.subarray(skipped);
        if (padding > 0 || pending.length < BLOCK) break;
        const header = pending.subarray(0, BLOCK);
        pending = pending.subarray(BLOCK);
        // Two zero blocks end the archive; the first is enough to stop.
        if (header[0] === 0) {
          ended = true;
          break;
        }
        const entry = entryOf(header, root);
        if (entry.type === 'directory') {
          await mkdir(entry.path, { recursive: true, mode: 0o700 });
          continue;
        }
        await mkdir(dirname(entry.path), { recursive: true, mode: 0o700 });
        const opened = await open(entry.path, 'wx', 0o600);
        remaining = entry.size;
        padding = (BLOCK - (entry.size % BLOCK)) % BLOCK;
        if (remaining > 0) file = opened;
        else await opened.close();
      }
    }
    if (!ended) throw new Error('the archive ends before its end-of-archive block');
  } finally {
    await file?.close();
  }
}
