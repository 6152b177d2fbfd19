/**
 * An open-addressing hash table from a name's 64-bit key ({@link nameKey}) to a small entry: flags (which
 * forms of the name are listed, never 0) and an optional 32-bit value. Keys are kept whole, so a lookup
 * compares all 64 bits and never confuses two names unless their keys collide (the list compiler counts such
 * collisions; with a million names one is expected about once in 30 million lists). Entries with the same key
 * are one entry, their flags merged.
 *
 * Both lanes of a slot's key lie side by side, so a probe reads one cache line: most probes of a query are
 * for names the table does not hold, and end at the first empty slot. The all-zero key marks an empty slot; a
 * name whose key is all zero is stored under (0, 1) instead.
 *
 * Memory: at least two slots an entry, 9 bytes a slot (13 with values): a million names take about 19 MB.
 * Nothing is allocated per lookup.
 */
export class NameTable {
  private readonly keys: Int32Array;
  private readonly flagBits: Uint8Array;
  private readonly values: Uint32Array | null;
  private readonly mask: number;
  private count = 0;

  /** A table for at most `capacity` distinct names. */
  constructor(
    readonly capacity: number,
    options: { values?: boolean } = {},
  ) {
    let slots = 8;
    while (slots < capacity * 2) slots *= 2;
    this.keys = new Int32Array(slots * 2);
    this.flagBits = new Uint8Array(slots);
    this.values = options.values === true ? new Uint32Array(slots) : null;
    this.mask = slots - 1;
  }

  /** Distinct names held. */
  get size(): number {
    return this.count;
  }

  /**
   * Adds `flags` (not 0) to the name with key (a, b), creating its entry with `value` when new; returns the
   * entry. Throws when the table already holds `capacity` names.
   */
  add(a: number, b: number, flags: number, value = 0): number {
    const second = a === 0 && b === 0 ? 1 : b;
    let slot = a & this.mask;
    for (;;) {
      const heldA = this.keys[2 * slot] as number;
      const heldB = this.keys[2 * slot + 1] as number;
      if (heldA === 0 && heldB === 0) break;
      if (heldA === a && heldB === second) {
        this.flagBits[slot] = (this.flagBits[slot] as number) | flags;
        return slot;
      }
      slot = (slot + 1) & this.mask;
    }
    if (this.count === this.capacity) throw new RangeError(`the name table holds ${this.capacity} names`);
    this.count += 1;
    this.keys[2 * slot] = a;
    this.keys[2 * slot + 1] = second;
    this.flagBits[slot] = flags;
    if (this.values !== null) this.values[slot] = value;
    return slot;
  }

  /** The entry of key (a, b), or -1. */
  find(a: number, b: number): number {
    const second = a === 0 && b === 0 ? 1 : b;
    const keys = this.keys;
    let slot = a & this.mask;
    for (;;) {
      const heldA = keys[2 * slot] as number;
      const heldB = keys[2 * slot + 1] as number;
      if (heldA === a && heldB === second) return slot;
      if (heldA === 0 && heldB === 0) return -1;
      slot = (slot + 1) & this.mask;
    }
  }

  /** The flags of key (a, b), 0 when absent. */
  flagsOf(a: number, b: number): number {
    const entry = this.find(a, b);
    return entry < 0 ? 0 : (this.flagBits[entry] as number);
  }

  /** The flags of an entry. */
  flagsAt(entry: number): number {
    return this.flagBits[entry] as number;
  }

  /** The value of an entry (0 for a table without values). */
  valueAt(entry: number): number {
    return this.values === null ? 0 : (this.values[entry] as number);
  }

  /** Bytes the table's arrays hold. */
  get byteLength(): number {
    return this.keys.byteLength + this.flagBits.byteLength + (this.values?.byteLength ?? 0);
  }
}
