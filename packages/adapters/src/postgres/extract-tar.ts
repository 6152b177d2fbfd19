import { closeSync, ftruncateSync, mkdirSync, openSync, writeSync } from 'node:fs';
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

/** Runs of zeros at least this long (one PostgreSQL page) are left as holes rather than written. */
const HOLE = 8192;
const ZEROS = Buffer.alloc(HOLE);

/** The length of the run of zero bytes at the start of `bytes`, counted in whole {@link HOLE}s. */
function zeroRun(bytes: Buffer): number {
  let run = 0;
  while (run + HOLE <= bytes.length && bytes.subarray(run, run + HOLE).equals(ZEROS)) run += HOLE;
  return run;
}

/** The length of the start of `bytes` that holds no {@link HOLE}-long run of zeros at a HOLE boundary. */
function dataRun(bytes: Buffer, offset: number): number {
  // Runs are looked for at file offsets that are multiples of HOLE, as the data dir's pages lie.
  let run = Math.min(bytes.length, (HOLE - (offset % HOLE)) % HOLE);
  while (run < bytes.length) {
    if (run + HOLE <= bytes.length && bytes.subarray(run, run + HOLE).equals(ZEROS)) break;
    run = Math.min(bytes.length, run + HOLE);
  }
  return run;
}

/**
 * Extracts a ustar archive read as a stream into `directory` (created): directories and regular files only,
 * written owner-only, as a data dir must be. Anything else (links, long-name extensions) is refused rather
 * than skipped, so that an archive this reader cannot reproduce exactly never yields a partial data dir.
 * File contents go to disk as they arrive: the archive is never whole in memory (a whole data dir, and memory
 * the allocator keeps after it is freed). The writes are synchronous: a data dir is about a thousand small
 * files, and a round trip through libuv's thread pool for every open, write and close made the copy several
 * times slower at a start that has nothing else to do meanwhile (docs/adr/0008-pglite-template.md).
 * Page-aligned runs of zeros (most of a fresh WAL segment) are not written: the file is extended over them,
 * which reads back as the same zeros, as PostgreSQL's own `wal_init_zero = off` leaves a new segment.
 */
export async function extractTar(source: AsyncIterable<Buffer>, directory: string): Promise<void> {
  const root = resolve(directory);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  let pending: Buffer = Buffer.alloc(0);
  let file: number | undefined;
  let size = 0;
  // How far into the current file bytes were written: short of `size` when it ends with a hole.
  let extent = 0;
  let remaining = 0;
  let padding = 0;
  let ended = false;
  // The folders made so far: a data dir's 1,000 files lie in a few dozen of them.
  const folders = new Set<string>([root]);
  const folder = (path: string) => {
    if (folders.has(path)) return;
    mkdirSync(path, { recursive: true, mode: 0o700 });
    folders.add(path);
  };
  try {
    for await (const chunk of source) {
      // Past the end-of-archive block the rest (the record's zero padding) is read and dropped: leaving the
      // source unread would cut off whatever writes it.
      if (ended) continue;
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      for (;;) {
        if (file !== undefined) {
          const part = pending.subarray(0, Math.min(remaining, pending.length));
          for (let done = 0; done < part.length; ) {
            const offset = size - remaining + done;
            const zeros = offset % HOLE === 0 ? zeroRun(part.subarray(done)) : 0;
            if (zeros > 0) {
              done += zeros;
              continue;
            }
            const end = done + dataRun(part.subarray(done), offset);
            for (let written = done; written < end; )
              written += writeSync(file, part, written, end - written, size - remaining + written);
            extent = size - remaining + end;
            done = end;
          }
          remaining -= part.length;
          pending = pending.subarray(part.length);
          if (remaining > 0) break;
          // Extends the file over a run of zeros at its end.
          if (extent < size) ftruncateSync(file, size);
          closeSync(file);
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
          folder(entry.path);
          continue;
        }
        folder(dirname(entry.path));
        const opened = openSync(entry.path, 'wx', 0o600);
        size = entry.size;
        extent = 0;
        remaining = entry.size;
        padding = (BLOCK - (entry.size % BLOCK)) % BLOCK;
        if (remaining > 0) file = opened;
        else closeSync(opened);
      }
    }
    if (!ended) throw new Error('the archive ends before its end-of-archive block');
  } finally {
    if (file !== undefined) closeSync(file);
  }
}
