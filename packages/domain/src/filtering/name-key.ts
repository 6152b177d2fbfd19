/**
 * The 64-bit lookup key of a domain name, as two 32-bit lanes, used by every name table of the edge (compiled
 * lists, rules, operator blocks) and by the list artifacts' canonical order.
 *
 * The key is computed over the name's characters from the last to the first. That way one pass over a query
 * name from right to left yields the key of every suffix that starts at a label boundary (`com`,
 * `example.com`, `ads.example.com`) without building those strings: a lookup of all a name's ancestors costs
 * one pass and one probe per label. ASCII letters are folded to lower case and one trailing dot is ignored, as
 * DNS compares names; the names compared are in wire form (A-labels), so nothing else folds.
 *
 * Lane A is FNV-1a over the characters, lane B a multiply-xorshift of its own; each lane's running state is
 * finished with the murmur3 finaliser, so that a table can take any bits of it as a slot.
 */

const LANE_A_SEED = 0x811c9dc5 | 0;
const LANE_A_PRIME = 0x01000193;
const LANE_B_SEED = 0x2f6b3c1d;
const LANE_B_MULTIPLIER = 0x5bd1e995;

/**
 * murmur3's 32-bit finaliser: every input bit affects every output bit. Lanes are signed 32-bit integers
 * (kept in Int32Arrays): engines keep those unboxed, where values above 2^31 would become doubles.
 */
export function finishLane(state: number): number {
  let h = state ^ (state >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** A character code as names compare: A-Z folded to a-z. */
function folded(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code;
}

function stepA(state: number, code: number): number {
  return Math.imul(state ^ code, LANE_A_PRIME);
}

function stepB(state: number, code: number): number {
  const mixed = Math.imul(state ^ code, LANE_B_MULTIPLIER);
  return mixed ^ (mixed >>> 15);
}

/** Index after the last character that counts (one trailing dot left out). */
function endOf(name: string): number {
  return name.length > 0 && name.charCodeAt(name.length - 1) === 46 ? name.length - 1 : name.length;
}

/** The two lanes of a name's key (see the module comment). */
export function nameKey(name: string): { a: number; b: number } {
  let a = LANE_A_SEED;
  let b = LANE_B_SEED;
  for (let index = endOf(name) - 1; index >= 0; index -= 1) {
    const code = folded(name.charCodeAt(index));
    a = stepA(a, code);
    b = stepB(b, code);
  }
  return { a: finishLane(a), b: finishLane(b) };
}

/** The key of a name given as bytes (ASCII, lower case, no trailing dot): what the list compiler stores. */
export function nameKeyOfBytes(bytes: Uint8Array, start: number, end: number): { a: number; b: number } {
  let a = LANE_A_SEED;
  let b = LANE_B_SEED;
  for (let index = end - 1; index >= start; index -= 1) {
    const code = folded(bytes[index] as number);
    a = stepA(a, code);
    b = stepB(b, code);
  }
  return { a: finishLane(a), b: finishLane(b) };
}

/** Most labels a name can have (253 characters, one per label and dot). */
export const MAX_NAME_LABELS = 127;

/**
 * The keys of a query name's label-boundary suffixes, filled in place to avoid an allocation per query: entry
 * `i` is the suffix with `i` labels removed from the left (0 is the whole name), `count` how many there are.
 * A name longer than {@link MAX_NAME_LABELS} labels keeps its rightmost ones (the whole name is then not
 * among them, so it matches only as a subdomain).
 */
export class SuffixKeys {
  readonly a = new Int32Array(MAX_NAME_LABELS + 1);
  readonly b = new Int32Array(MAX_NAME_LABELS + 1);
  count = 0;

  /** Computes the keys of `name`'s suffixes; returns how many (0 for an empty name). */
  of(name: string): number {
    const end = endOf(name);
    const lanesA = this.a;
    const lanesB = this.b;
    let a = LANE_A_SEED;
    let b = LANE_B_SEED;
    // Gathered right to left, then reversed so that index 0 is the whole name. A suffix is complete when the
    // dot on its left is reached (its key is the state before that dot), so each character is read once.
    let found = 0;
    for (let index = end - 1; index >= 0; index -= 1) {
      let code = name.charCodeAt(index);
      // A dot last in the name (after the trailing one left out) has no suffix on its right.
      if (code === 46 && index !== end - 1) {
        if (found === MAX_NAME_LABELS + 1) break;
        lanesA[found] = finishLane(a);
        lanesB[found] = finishLane(b);
        found += 1;
      } else if (code >= 65 && code <= 90) code += 32;
      a = Math.imul(a ^ code, LANE_A_PRIME);
      const mixed = Math.imul(b ^ code, LANE_B_MULTIPLIER);
      b = mixed ^ (mixed >>> 15);
    }
    if (end > 0 && found <= MAX_NAME_LABELS) {
      lanesA[found] = finishLane(a);
      lanesB[found] = finishLane(b);
      found += 1;
    }
    for (let low = 0, high = found - 1; low < high; low += 1, high -= 1) {
      const swapA = lanesA[low] as number;
      lanesA[low] = lanesA[high] as number;
      lanesA[high] = swapA;
      const swapB = lanesB[low] as number;
      lanesB[low] = lanesB[high] as number;
      lanesB[high] = swapB;
    }
    this.count = found;
    return found;
  }
}
