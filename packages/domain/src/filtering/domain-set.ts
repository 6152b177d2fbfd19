import { EXCEPTION_FLAGS, flagsBlock, flagsExcept } from './entry-forms.js';
import { countLines, LIST_ARTIFACT_HEADER, parseArtifactLine } from './list-artifact.js';
import { nameKeyOfBytes, type SuffixKeys } from './name-key.js';
import { NameTable } from './name-table.js';

const HEADER_BYTES = new TextEncoder().encode(LIST_ARTIFACT_HEADER);

/** The artifact does not start with the format's header line: not a list this code can read. */
export class ListArtifactFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ListArtifactFormatError';
  }
}

/**
 * One compiled list held for lookups: the keys of its names and the forms each is listed in, without the
 * names themselves (a million names in about 17 MB). Built once from an artifact's bytes; read-only after.
 */
export class DomainSet {
  private constructor(
    private readonly table: NameTable,
    /** Whether any entry is an exception: without any, a lookup stops at the first block. */
    private readonly hasExceptions: boolean,
    /** Blocking entries (lines without `@@`). */
    readonly entries: number,
  ) {}

  /**
   * Reads a list artifact (list-artifact.ts). Lines that are not entries are skipped. Throws
   * {@link ListArtifactFormatError} when the header is not this format's.
   */
  static fromArtifact(bytes: Uint8Array): DomainSet {
    const headerEnd = bytes.indexOf(10);
    const header = bytes.subarray(0, headerEnd === -1 ? bytes.length : headerEnd);
    if (header.length !== HEADER_BYTES.length || !header.every((byte, index) => byte === HEADER_BYTES[index]))
      throw new ListArtifactFormatError(`a list artifact starts with "${LIST_ARTIFACT_HEADER}"`);
    const table = new NameTable(Math.max(0, countLines(bytes) - 1));
    let hasExceptions = false;
    let entries = 0;
    let start = headerEnd === -1 ? bytes.length : headerEnd + 1;
    while (start < bytes.length) {
      let end = bytes.indexOf(10, start);
      if (end === -1) end = bytes.length;
      const line = parseArtifactLine(bytes, start, end);
      if (line !== null) {
        const key = nameKeyOfBytes(bytes, line.nameStart, end);
        table.add(key.a, key.b, line.flag);
        if ((line.flag & EXCEPTION_FLAGS) !== 0) hasExceptions = true;
        else entries += 1;
      }
      start = end + 1;
    }
    return new DomainSet(table, hasExceptions, entries);
  }

  /** Distinct names held (blocking and exceptions). */
  get size(): number {
    return this.table.size;
  }

  /** Bytes of the set's arrays. */
  get byteLength(): number {
    return this.table.byteLength;
  }

  /**
   * Whether the list blocks the name whose suffix keys `keys` holds: some entry on the name or an ancestor
   * blocks it and no exception of this list on it or an ancestor unblocks it.
   */
  blocks(keys: SuffixKeys): boolean {
    let blocked = false;
    for (let index = 0; index < keys.count; index += 1) {
      const flags = this.table.flagsOf(keys.a[index] as number, keys.b[index] as number);
      if (flags === 0) continue;
      const whole = index === 0;
      if (this.hasExceptions && flagsExcept(flags, whole)) return false;
      if (flagsBlock(flags, whole)) {
        if (!this.hasExceptions) return true;
        blocked = true;
      }
    }
    return blocked;
  }
}
