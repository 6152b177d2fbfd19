import type { ListFormat } from '../catalogue/list-format.js';
import { type EntryForm, EXCEPTION_FLAGS, entryFlag } from '../filtering/entry-forms.js';
import { LIST_ARTIFACT_HEADER, parseArtifactLine } from '../filtering/list-artifact.js';
import { nameKeyOfBytes } from '../filtering/name-key.js';
import { LIST_LINE_MAX_LENGTH, type ListEntrySink, parseListLine } from './list-line.js';

/** Invalid lines quoted in a compilation's report. */
const INVALID_SAMPLES = 5;
/** Characters of an invalid line quoted. */
const SAMPLE_LENGTH = 120;
/** Bytes of each chunk the artifact is written in. */
const OUTPUT_CHUNK = 64 * 1024;
const INITIAL_ENTRIES = 1 << 14;
/**
 * Names are kept in blocks of this many bytes (a name never spans two): the store grows a block at a time,
 * without the copy and the doubling of one growing array, which held up to three times the names at its peak.
 */
const BLOCK_BITS = 20;
const BLOCK_BYTES = 1 << BLOCK_BITS;
const BLOCK_MASK = BLOCK_BYTES - 1;

/** An invalid line quoted in a report: its number (from 1), its start and why it was refused. */
export interface InvalidLineSample {
  line: number;
  text: string;
  reason: string;
}

/** What a compilation read and kept. */
export interface ListCompileStats {
  /** Lines read. */
  lines: number;
  /** Distinct blocking entries of the artifact. */
  entries: number;
  /** Distinct exceptions (`@@`) of the artifact. */
  exceptions: number;
  /** Entries read more than once (dropped). */
  duplicates: number;
  /** Lines that are not valid entries (malformed names, over-long lines). */
  invalid: number;
  /** Lines left out on purpose: cosmetic and URL rules, local names, narrowing modifiers. */
  ignored: number;
  /** Distinct names sharing a 64-bit key with another (kept; a node cannot tell them apart). */
  collisions: number;
  invalidSamples: InvalidLineSample[];
}

/** A finished compilation: its report and the artifact's text (list-artifact.ts), chunk by chunk. */
export interface CompiledList {
  stats: ListCompileStats;
  /** The artifact's bytes in order; iterate once. */
  chunks(): Generator<Uint8Array>;
}

const PREFIX_BYTES: Record<number, Uint8Array> = Object.fromEntries(
  (['exact', 'subtree', 'subdomains'] as const).flatMap((form) =>
    [false, true].map((exception) => [
      entryFlag(form, exception),
      new TextEncoder().encode(
        `${exception ? '@@' : ''}${form === 'exact' ? '=' : form === 'subdomains' ? '*.' : ''}`,
      ),
    ]),
  ),
);

/**
 * Compiles list sources into an artifact (list-artifact.ts): lines are read as they arrive (text in any
 * chunks, or earlier artifacts to merge), normalised, keyed and kept in flat arrays (a million names in a few
 * tens of megabytes, not an object each), then sorted by key with a radix sort, deduplicated and written out.
 * Pure: no I/O; the caller streams the source in and the artifact out, and computes its digest.
 */
export class ListCompiler implements ListEntrySink {
  private readonly blocks: Uint8Array[] = [new Uint8Array(BLOCK_BYTES)];
  /** The block names are written to, and how much of it is used. */
  private block = this.blocks[0] as Uint8Array;
  private used = 0;
  private starts = new Uint32Array(INITIAL_ENTRIES);
  private lengths = new Uint8Array(INITIAL_ENTRIES);
  private flags = new Uint8Array(INITIAL_ENTRIES);
  private keyA = new Int32Array(INITIAL_ENTRIES);
  private keyB = new Int32Array(INITIAL_ENTRIES);
  private count = 0;
  private carry = '';
  /** True while skipping the rest of an over-long line. */
  private skipping = false;
  private finished = false;
  private readonly stats: ListCompileStats = {
    lines: 0,
    entries: 0,
    exceptions: 0,
    duplicates: 0,
    invalid: 0,
    ignored: 0,
    collisions: 0,
    invalidSamples: [],
  };

  constructor(private readonly format: ListFormat) {}

  /** Reads the next piece of a source's text (pieces may split lines anywhere). */
  pushText(text: string): void {
    this.assertOpen();
    let start = 0;
    for (;;) {
      const newline = text.indexOf('\n', start);
      if (newline === -1) break;
      const piece = text.slice(start, newline);
      start = newline + 1;
      if (this.skipping) {
        this.skipping = false;
        this.carry = '';
        continue;
      }
      const line = this.carry === '' ? piece : this.carry + piece;
      this.carry = '';
      this.readLine(line);
    }
    if (start < text.length && !this.skipping) {
      this.carry += text.slice(start);
      if (this.carry.length > LIST_LINE_MAX_LENGTH) {
        // Counted now, skipped to its end: a line without an end never grows past the limit in memory.
        this.stats.lines += 1;
        this.refuse(this.carry, `longer than ${LIST_LINE_MAX_LENGTH} characters`);
        this.carry = '';
        this.skipping = true;
      }
    }
  }

  /** Reads every entry of an earlier artifact (to merge a list's sources); its header line is skipped. */
  pushArtifact(artifact: Uint8Array): void {
    this.assertOpen();
    let start = artifact.indexOf(10) + 1;
    if (start === 0) return;
    while (start < artifact.length) {
      let end = artifact.indexOf(10, start);
      if (end === -1) end = artifact.length;
      const line = parseArtifactLine(artifact, start, end);
      if (line !== null && end - line.nameStart <= 253) {
        this.reserve(end - line.nameStart);
        this.block.set(artifact.subarray(line.nameStart, end), this.used);
        this.store(end - line.nameStart, line.flag);
      }
      start = end + 1;
    }
  }

  /** {@link ListEntrySink}: one normalised entry of a line. */
  entry(name: string, form: EntryForm, exception: boolean): void {
    this.reserve(name.length);
    const at = this.used;
    const block = this.block;
    for (let index = 0; index < name.length; index += 1) block[at + index] = name.charCodeAt(index);
    this.store(name.length, entryFlag(form, exception));
  }

  /** Ends the input: the last line without a newline is read, entries sorted and deduplicated. */
  finish(): CompiledList {
    this.assertOpen();
    if (this.carry !== '' && !this.skipping) this.readLine(this.carry);
    this.carry = '';
    this.finished = true;
    const order = this.sortedOrder();
    const kept = this.deduplicate(order);
    const stats = this.stats;
    const blocks = this.blocks;
    const starts = this.starts;
    const lengths = this.lengths;
    const flags = this.flags;
    return {
      stats,
      *chunks() {
        let out = new Uint8Array(OUTPUT_CHUNK);
        let filled = 0;
        const header = new TextEncoder().encode(`${LIST_ARTIFACT_HEADER}\n`);
        out.set(header);
        filled = header.length;
        for (const entry of kept) {
          const prefix = PREFIX_BYTES[flags[entry] as number] as Uint8Array;
          const start = starts[entry] as number;
          const length = lengths[entry] as number;
          const size = prefix.length + length + 1;
          if (filled + size > OUTPUT_CHUNK) {
            yield out.subarray(0, filled);
            out = new Uint8Array(OUTPUT_CHUNK);
            filled = 0;
          }
          out.set(prefix, filled);
          const offset = start & BLOCK_MASK;
          out.set(
            (blocks[start >>> BLOCK_BITS] as Uint8Array).subarray(offset, offset + length),
            filled + prefix.length,
          );
          out[filled + size - 1] = 10;
          filled += size;
        }
        if (filled > 0) yield out.subarray(0, filled);
      },
    };
  }

  private assertOpen(): void {
    if (this.finished) throw new Error('the compilation is finished');
  }

  private readLine(line: string): void {
    this.stats.lines += 1;
    const outcome = parseListLine(line, this.format, this);
    if (outcome.kind === 'invalid') this.refuse(line, outcome.reason);
    else if (outcome.kind === 'ignored') this.stats.ignored += 1;
  }

  private refuse(line: string, reason: string): void {
    this.stats.invalid += 1;
    if (this.stats.invalidSamples.length < INVALID_SAMPLES)
      this.stats.invalidSamples.push({ line: this.stats.lines, text: line.slice(0, SAMPLE_LENGTH), reason });
  }

  /** Room for one more entry of `length` name bytes. */
  private reserve(length: number): void {
    if (this.used + length > BLOCK_BYTES) {
      this.block = new Uint8Array(BLOCK_BYTES);
      this.blocks.push(this.block);
      this.used = 0;
    }
    if (this.count === this.starts.length) {
      const size = this.starts.length * 2;
      this.starts = grow(this.starts, new Uint32Array(size));
      this.lengths = grow(this.lengths, new Uint8Array(size));
      this.flags = grow(this.flags, new Uint8Array(size));
      this.keyA = grow(this.keyA, new Int32Array(size));
      this.keyB = grow(this.keyB, new Int32Array(size));
    }
  }

  /** Records the entry whose `length` name bytes were just written at `used`. */
  private store(length: number, flag: number): void {
    const entry = this.count;
    const key = nameKeyOfBytes(this.block, this.used, this.used + length);
    this.starts[entry] = (this.blocks.length - 1) * BLOCK_BYTES + this.used;
    this.lengths[entry] = length;
    this.flags[entry] = flag;
    this.keyA[entry] = key.a;
    this.keyB[entry] = key.b;
    this.used += length;
    this.count += 1;
  }

  /**
   * Entry indexes sorted by key (lane A, then lane B, unsigned): a counting sort by lane A's top 16 bits into
   * one array, then each bucket sorted on its own (a few entries each, the keys being hashes), by insertion
   * when small and by the engine's sort otherwise, so that crafted names sharing a bucket cost n log n. One
   * array of indexes, not the two a radix sort swaps between: this is the compilation's peak of memory.
   */
  private sortedOrder(): Uint32Array {
    const keyA = this.keyA;
    const keyB = this.keyB;
    const count = this.count;
    const starts = new Uint32Array((1 << 16) + 1);
    for (let index = 0; index < count; index += 1) {
      const bucket = (keyA[index] as number) >>> 16;
      starts[bucket + 1] = (starts[bucket + 1] as number) + 1;
    }
    for (let bucket = 0; bucket < 1 << 16; bucket += 1)
      starts[bucket + 1] = (starts[bucket + 1] as number) + (starts[bucket] as number);
    const next = starts.slice(0, 1 << 16);
    const order = new Uint32Array(count);
    for (let index = 0; index < count; index += 1) {
      const bucket = (keyA[index] as number) >>> 16;
      order[next[bucket] as number] = index;
      next[bucket] = (next[bucket] as number) + 1;
    }
    const before = (x: number, y: number): number =>
      (keyA[x] as number) >>> 0 !== (keyA[y] as number) >>> 0
        ? ((keyA[x] as number) >>> 0) - ((keyA[y] as number) >>> 0)
        : ((keyB[x] as number) >>> 0) - ((keyB[y] as number) >>> 0);
    for (let bucket = 0; bucket < 1 << 16; bucket += 1) {
      const from = starts[bucket] as number;
      const to = starts[bucket + 1] as number;
      if (to - from < 2) continue;
      if (to - from > 32) {
        order.subarray(from, to).sort(before);
        continue;
      }
      for (let at = from + 1; at < to; at += 1) {
        const entry = order[at] as number;
        let into = at;
        while (into > from && before(order[into - 1] as number, entry) > 0) {
          order[into] = order[into - 1] as number;
          into -= 1;
        }
        order[into] = entry;
      }
    }
    return order;
  }

  /**
   * The entries to write, in the artifact's order: runs of one key are ordered by their line's bytes, exact
   * repeats dropped; distinct names in one run are key collisions.
   */
  private deduplicate(order: Uint32Array): Uint32Array {
    // Kept in place: an entry is written at or before the position it was read from (a run is copied first).
    const kept = order;
    let keptCount = 0;
    let runStart = 0;
    while (runStart < order.length) {
      const first = order[runStart] as number;
      let runEnd = runStart + 1;
      while (
        runEnd < order.length &&
        this.keyA[order[runEnd] as number] === this.keyA[first] &&
        this.keyB[order[runEnd] as number] === this.keyB[first]
      )
        runEnd += 1;
      if (runEnd - runStart === 1) {
        kept[keptCount] = first;
        keptCount += 1;
        if ((this.flags[first] as number) & EXCEPTION_FLAGS) this.stats.exceptions += 1;
        else this.stats.entries += 1;
        runStart = runEnd;
        continue;
      }
      const run = Array.from(order.subarray(runStart, runEnd));
      run.sort((a, b) => this.compareLines(a, b));
      let previous = -1;
      let previousName = -1;
      for (const entry of run) {
        if (previous !== -1 && this.compareLines(previous, entry) === 0) {
          this.stats.duplicates += 1;
          continue;
        }
        if (previousName !== -1 && this.compareNames(previousName, entry) !== 0) this.stats.collisions += 1;
        kept[keptCount] = entry;
        keptCount += 1;
        if ((this.flags[entry] as number) & EXCEPTION_FLAGS) this.stats.exceptions += 1;
        else this.stats.entries += 1;
        previous = entry;
        previousName = entry;
      }
      runStart = runEnd;
    }
    return kept.subarray(0, keptCount);
  }

  /** Byte order of two entries' artifact lines. */
  private compareLines(a: number, b: number): number {
    const prefixA = PREFIX_BYTES[this.flags[a] as number] as Uint8Array;
    const prefixB = PREFIX_BYTES[this.flags[b] as number] as Uint8Array;
    const lineA = new Uint8Array(prefixA.length + (this.lengths[a] as number));
    lineA.set(prefixA);
    lineA.set(this.nameBytes(a), prefixA.length);
    const lineB = new Uint8Array(prefixB.length + (this.lengths[b] as number));
    lineB.set(prefixB);
    lineB.set(this.nameBytes(b), prefixB.length);
    return compareBytes(lineA, lineB);
  }

  private compareNames(a: number, b: number): number {
    return compareBytes(this.nameBytes(a), this.nameBytes(b));
  }

  private nameBytes(entry: number): Uint8Array {
    const start = this.starts[entry] as number;
    const offset = start & BLOCK_MASK;
    return (this.blocks[start >>> BLOCK_BITS] as Uint8Array).subarray(
      offset,
      offset + (this.lengths[entry] as number),
    );
  }
}

function grow<T extends Uint8Array | Uint32Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index += 1) {
    const difference = (a[index] as number) - (b[index] as number);
    if (difference !== 0) return difference;
  }
  return a.length - b.length;
}
