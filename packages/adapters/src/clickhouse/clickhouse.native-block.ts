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

/** What an insert reads: the block, its structure, and the query parameters its SELECT binds. */
export interface NativeInsert {
  structure: string;
  /** One Native block: the column and row counts, then each column's name, type and values. */
  block: Buffer[];
  params: Record<string, unknown>;
}

/**
 * Builds one Native block from typed arrays without converting a value: the block carries the arrays' bytes
 * as they lie in memory (little-endian: checked), and repeated strings travel once, as dictionaries in query
 * parameters that the SELECT looks codes up in. Both chdb (from a file) and a server (the request body)
 * read it, with bound parameters only.
 */
export class NativeBlockBuilder {
  private readonly columns: [name: string, array: NativeArray, type: string][] = [];
  private readonly codeColumns = new Map<NativeArray, string>();
  private readonly params: Record<string, unknown> = {};

  constructor(private readonly rows: number) {
    if (endianness() !== 'LE') throw new Error('Native blocks are written on little-endian hosts only');
  }

  /**
   * Adds a column of the block and returns the name to read it by. `type` overrides the element type
   * (`UInt64` for two 32-bit words a row, low word first).
   */
  column(name: string, array: NativeArray, type = nativeType(array)): string {
    this.columns.push([name, array, type]);
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
    for (const [name, array, type] of this.columns) {
      block.push(
        nativeString(name),
        nativeString(type),
        Buffer.from(array.buffer, array.byteOffset, array.byteLength),
      );
    }
    return {
      structure: this.columns.map(([name, , type]) => `${name} ${type}`).join(', '),
      block,
      params: this.params,
    };
  }
}
