import { endianness } from 'node:os';

/** The typed arrays a Native block carries as they are. */
export type NativeArray = Float64Array | Uint32Array | Uint16Array | Uint8Array;

/** The Native type of a typed array's elements. */
function nativeType(array: NativeArray): string {
  if (array instanceof Float64Array) return 'Float64';
  if (array instanceof Uint8Array) return 'UInt8';
  if (array instanceof Uint16Array) return 'UInt16';
  return 'UInt32';
}

/** An unsigned LEB128 integer (Native's lengths and counts). */
function varUInt(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

/** A Native string: its length, then its UTF-8 bytes. */
function nativeString(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([varUInt(bytes.length), bytes]);
}

/** A little-endian UInt64 below 2^53. */
function uint64(value: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeUInt32LE(value % 0x1_0000_0000, 0);
  bytes.writeUInt32LE(Math.floor(value / 0x1_0000_0000), 4);
  return bytes;
}

/** Texts as Native strings one after the other, in one buffer. */
function nativeStrings(texts: readonly string[]): Buffer {
  let size = 0;
  for (const text of texts) {
    const length = Buffer.byteLength(text, 'utf8');
    size += length + (length < 0x80 ? 1 : length < 0x4000 ? 2 : 5);
  }
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  for (const text of texts) {
    let length = Buffer.byteLength(text, 'utf8');
    while (length >= 0x80) {
      bytes[at++] = (length & 0x7f) | 0x80;
      length = Math.floor(length / 128);
    }
    bytes[at++] = length;
    at += bytes.write(text, at, 'utf8');
  }
  return bytes.subarray(0, at);
}

/**
 * Bits of a LowCardinality column's index header (ClickHouse's IndexesSerializationType): the width of the
 * indexes (0 to 3: UInt8 to UInt64), and that the dictionary keys travel with them.
 */
const HAS_ADDITIONAL_KEYS = 1 << 9;
/** The LowCardinality serialization version that carries keys with each block (the only one Native takes). */
const SHARED_DICTIONARIES_WITH_ADDITIONAL_KEYS = 1;

/** Width code of LowCardinality indexes of a codes array. */
function indexWidth(codes: Uint8Array | Uint16Array | Uint32Array): number {
  if (codes instanceof Uint8Array) return 0;
  if (codes instanceof Uint16Array) return 1;
  return 2;
}

/** The highest code of an array (0 when empty). */
function maxCode(codes: Uint8Array | Uint16Array | Uint32Array): number {
  let max = 0;
  for (let index = 0; index < codes.length; index += 1) {
    const code = codes[index] as number;
    if (code > max) max = code;
  }
  return max;
}

/** What an insert reads: the block, its structure, and the query parameters its SELECT binds. */
export interface NativeInsert {
  structure: string;
  /** One Native block: the column and row counts, then each column's name, type and values. */
  block: Buffer[];
  params: Record<string, unknown>;
}

/**
 * Builds one Native block from typed arrays without converting a value: the block carries the arrays' bytes
 * as they lie in memory (little-endian: checked), and repeated strings travel once: as LowCardinality columns
 * (a dictionary of the distinct texts and one code per row, which the engine stores as they are), or as
 * dictionaries in query parameters that the SELECT looks codes up in (other types). Both chdb (from a file)
 * and a server (the request body) read it, with bound parameters only.
 */
export class NativeBlockBuilder {
  private readonly columns: [name: string, type: string, bytes: readonly Buffer[]][] = [];
  private readonly codeColumns = new Map<NativeArray, string>();
  /** The highest code of each codes array checked (several columns may share one). */
  private readonly highestCodes = new Map<NativeArray, number>();
  private readonly params: Record<string, unknown> = {};

  constructor(private readonly rows: number) {
    if (endianness() !== 'LE') throw new Error('Native blocks are written on little-endian hosts only');
  }

  /**
   * Adds a column of the block and returns the name to read it by. `type` overrides the element type
   * (`UInt64` for two 32-bit words a row, low word first).
   */
  column(name: string, array: NativeArray, type = nativeType(array)): string {
    this.columns.push([name, type, [Buffer.from(array.buffer, array.byteOffset, array.byteLength)]]);
    return name;
  }

  /**
   * Adds a `LowCardinality(String)` column holding `values[codes[row]]` for each row and returns the name to
   * read it by: the texts travel once, and the engine takes the codes as its own instead of hashing a string
   * per row. Every code must index `values` (checked: the engine trusts them).
   */
  lowCardinality(
    name: string,
    codes: Uint8Array | Uint16Array | Uint32Array,
    values: readonly string[],
  ): string {
    let highest = this.highestCodes.get(codes);
    if (highest === undefined) {
      highest = maxCode(codes);
      this.highestCodes.set(codes, highest);
    }
    if (codes.length > 0 && highest >= values.length)
      throw new RangeError(`a code of column ${name} lies outside its dictionary`);
    this.columns.push([
      name,
      'LowCardinality(String)',
      [
        uint64(SHARED_DICTIONARIES_WITH_ADDITIONAL_KEYS),
        uint64(indexWidth(codes) | HAS_ADDITIONAL_KEYS),
        uint64(values.length),
        nativeStrings(values),
        uint64(codes.length),
        Buffer.from(codes.buffer, codes.byteOffset, codes.byteLength),
      ],
    ]);
    return name;
  }

  /**
   * Adds `values` as the query parameter `param` of type `Array(itemType)` and returns the expression
   * reading the value of each row's code. Codes arrays shared by several dictionaries are sent once.
   */
  lookup(param: string, itemType: string, codes: NativeArray, values: readonly unknown[]): string {
    let read = this.codeColumns.get(codes);
    if (read === undefined) {
      read = this.column(`code_${this.codeColumns.size}`, codes);
      this.codeColumns.set(codes, read);
    }
    this.params[param] = values;
    return `arrayElement({${param}:Array(${itemType})}, ${read} + 1)`;
  }

  /** Binds one more query parameter. */
  bind(param: string, value: unknown): void {
    this.params[param] = value;
  }

  build(): NativeInsert {
    const block: Buffer[] = [varUInt(this.columns.length), varUInt(this.rows)];
    for (const [name, type, bytes] of this.columns)
      block.push(nativeString(name), nativeString(type), ...bytes);
    return {
      structure: this.columns.map(([name, type]) => `${name} ${type}`).join(', '),
      block,
      params: this.params,
    };
  }
}
