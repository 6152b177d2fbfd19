import type { OperatorCode, QueryLogRow, QueryStatus, QueryTransport } from '@svc/domain';

/** Codes of a dictionary column, one per row. */
type ColumnCodes = Uint8Array | Uint16Array | Uint32Array;

/**
 * A column whose values repeat: one code per row indexing `values`. Several columns may share one `codes`
 * array (a device's id, name and transport come with the device), which writers send once.
 */
export interface DictionaryColumn<T> {
  readonly codes: ColumnCodes;
  readonly values: readonly T[];
}

/**
 * Query-log rows column by column, with the fields of {@link QueryLogRow}: what the edge writer takes in bulk.
 * Building a batch this way costs a few typed-array stores per row instead of an object, a Date and a dozen
 * strings, and a writer can hand the arrays to the store as they are.
 */
export interface QueryLogColumns {
  readonly length: number;
  readonly profileId: DictionaryColumn<string>;
  /** Unix milliseconds. */
  readonly ts: Float64Array;
  /** The 64-bit unsigned row ids: two words per row, the low word first. */
  readonly rowId: Uint32Array;
  readonly pop: DictionaryColumn<string>;
  readonly node: DictionaryColumn<string | null>;
  readonly deviceId: DictionaryColumn<string>;
  readonly deviceName: DictionaryColumn<string>;
  readonly clientIp: DictionaryColumn<string>;
  readonly transport: DictionaryColumn<QueryTransport>;
  readonly qname: DictionaryColumn<string>;
  readonly qtype: Uint16Array;
  readonly status: DictionaryColumn<QueryStatus>;
  readonly reasonListId: DictionaryColumn<number | null>;
  readonly reasonListName: DictionaryColumn<string>;
  readonly reasonRule: DictionaryColumn<string>;
  readonly operatorCode: DictionaryColumn<OperatorCode | ''>;
  readonly rcode: Uint8Array;
  /** 1 when validated, else 0. */
  readonly dnssecValidated: Uint8Array;
  /** 1 when answered from the cache, else 0. */
  readonly cacheHit: Uint8Array;
  readonly latencyUs: Uint32Array;
  readonly answerIps: DictionaryColumn<readonly string[]>;
  /** The policy that decided (issue 38); '' when the reason code says it all. */
  readonly decidedBy: DictionaryColumn<string>;
}

/** The dictionary columns of a batch, by field name. */
const DICTIONARY_FIELDS = [
  'profileId',
  'pop',
  'node',
  'deviceId',
  'deviceName',
  'clientIp',
  'transport',
  'qname',
  'status',
  'reasonListId',
  'reasonListName',
  'reasonRule',
  'operatorCode',
  'answerIps',
  'decidedBy',
] as const satisfies readonly (keyof QueryLogColumns)[];

const TWO_32 = 4_294_967_296;

/** A row id (decimal text of an unsigned 64-bit integer) from its two words. */
function rowIdText(low: number, high: number): string {
  const value = high * TWO_32 + low;
  return Number.isSafeInteger(value) ? String(value) : ((BigInt(high) << 32n) | BigInt(low)).toString();
}

/** The value of row `index` of a dictionary column. */
function valueAt<T>(column: DictionaryColumn<T>, index: number): T {
  return column.values[column.codes[index] as number] as T;
}

/** Row `index` of a batch as a row object. */
export function queryLogRowAt(batch: QueryLogColumns, index: number): QueryLogRow {
  return {
    profileId: valueAt(batch.profileId, index),
    ts: new Date(batch.ts[index] as number),
    rowId: rowIdText(batch.rowId[2 * index] as number, batch.rowId[2 * index + 1] as number),
    pop: valueAt(batch.pop, index),
    node: valueAt(batch.node, index),
    deviceId: valueAt(batch.deviceId, index),
    deviceName: valueAt(batch.deviceName, index),
    clientIp: valueAt(batch.clientIp, index),
    transport: valueAt(batch.transport, index),
    qname: valueAt(batch.qname, index),
    qtype: batch.qtype[index] as number,
    status: valueAt(batch.status, index),
    reasonListId: valueAt(batch.reasonListId, index),
    reasonListName: valueAt(batch.reasonListName, index),
    reasonRule: valueAt(batch.reasonRule, index),
    operatorCode: valueAt(batch.operatorCode, index),
    rcode: batch.rcode[index] as number,
    dnssecValidated: batch.dnssecValidated[index] === 1,
    cacheHit: batch.cacheHit[index] === 1,
    latencyUs: batch.latencyUs[index] as number,
    answerIps: valueAt(batch.answerIps, index) as string[],
    ...decidedByOf(valueAt(batch.decidedBy, index)),
  };
}

/** A row's `decidedBy`, left out when empty: rows of writers older than issue 38 have none. */
export function decidedByOf(value: string): { decidedBy?: string } {
  return value === '' ? {} : { decidedBy: value };
}

/** A batch as row objects (for writers and tests that take rows). */
export function queryLogRowsOf(batch: QueryLogColumns): QueryLogRow[] {
  const rows: QueryLogRow[] = new Array(batch.length);
  for (let index = 0; index < batch.length; index += 1) rows[index] = queryLogRowAt(batch, index);
  return rows;
}

/** Builds one dictionary column from per-row values, equal values (by `key`) sharing a code. */
function encode<T>(values: readonly T[], key: (value: T) => unknown = (value) => value): DictionaryColumn<T> {
  const codes = new Uint32Array(values.length);
  const dictionary: T[] = [];
  const seen = new Map<unknown, number>();
  values.forEach((value, index) => {
    const id = key(value);
    let code = seen.get(id);
    if (code === undefined) {
      code = dictionary.length;
      dictionary.push(value);
      seen.set(id, code);
    }
    codes[index] = code;
  });
  return { codes, values: dictionary };
}

/** Row objects as a batch (rows written one by one, node batches). */
export function queryLogColumnsOf(rows: readonly QueryLogRow[]): QueryLogColumns {
  const pick = <K extends keyof QueryLogRow>(field: K): QueryLogRow[K][] => rows.map((row) => row[field]);
  const rowId = new Uint32Array(2 * rows.length);
  rows.forEach((row, index) => {
    const value = BigInt(row.rowId);
    rowId[2 * index] = Number(value & 0xffffffffn);
    rowId[2 * index + 1] = Number(value >> 32n);
  });
  return {
    length: rows.length,
    profileId: encode(pick('profileId')),
    ts: Float64Array.from(rows, (row) => row.ts.getTime()),
    rowId,
    pop: encode(pick('pop')),
    node: encode(pick('node')),
    deviceId: encode(pick('deviceId')),
    deviceName: encode(pick('deviceName')),
    clientIp: encode(pick('clientIp')),
    transport: encode(pick('transport')),
    qname: encode(pick('qname')),
    qtype: Uint16Array.from(rows, (row) => row.qtype),
    status: encode(pick('status')),
    reasonListId: encode(pick('reasonListId')),
    reasonListName: encode(pick('reasonListName')),
    reasonRule: encode(pick('reasonRule')),
    operatorCode: encode(pick('operatorCode')),
    rcode: Uint8Array.from(rows, (row) => row.rcode),
    dnssecValidated: Uint8Array.from(rows, (row) => (row.dnssecValidated ? 1 : 0)),
    cacheHit: Uint8Array.from(rows, (row) => (row.cacheHit ? 1 : 0)),
    latencyUs: Uint32Array.from(rows, (row) => row.latencyUs),
    answerIps: encode<readonly string[]>(pick('answerIps'), (ips) => ips.join(' ')),
    decidedBy: encode(rows.map((row) => row.decidedBy ?? '')),
  };
}

/** Concatenates typed arrays of one kind. */
function concatArrays<A extends Float64Array | Uint32Array | Uint16Array | Uint8Array>(
  parts: readonly A[],
  make: (length: number) => A,
): A {
  const all = make(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    all.set(part, offset);
    offset += part.length;
  }
  return all;
}

/** A codes array wide enough for codes below `size`, of `length` rows. */
function codesFor(size: number, length: number): ColumnCodes {
  if (size <= 0x100) return new Uint8Array(length);
  if (size <= 0x1_0000) return new Uint16Array(length);
  return new Uint32Array(length);
}

/**
 * Several batches as one (one insert, so one part per partition, instead of one per batch). Dictionaries
 * that are the same array in several batches (profiles filtering alike share theirs) are kept once; codes
 * shared between columns in every batch stay shared when their dictionaries line up, so a writer sends
 * them once. Codes are as narrow as the merged dictionary allows.
 */
export function concatQueryLogColumns(batches: readonly QueryLogColumns[]): QueryLogColumns {
  const length = batches.reduce((sum, batch) => sum + batch.length, 0);
  /** Merged codes by the batches' codes arrays and the offsets of their values in the merged dictionary. */
  const mergedCodes = new Map<string, ColumnCodes>();
  const codesIds = new Map<ColumnCodes, number>();
  const mergedColumns: Partial<Record<(typeof DICTIONARY_FIELDS)[number], DictionaryColumn<unknown>>> = {};
  for (const field of DICTIONARY_FIELDS) {
    const values: unknown[] = [];
    const offsets = new Map<readonly unknown[], number>();
    const batchOffsets: number[] = [];
    let key = '';
    for (const batch of batches) {
      const column = batch[field] as DictionaryColumn<unknown>;
      let offset = offsets.get(column.values);
      if (offset === undefined) {
        offset = values.length;
        for (const value of column.values) values.push(value);
        offsets.set(column.values, offset);
      }
      batchOffsets.push(offset);
      let id = codesIds.get(column.codes);
      if (id === undefined) {
        id = codesIds.size;
        codesIds.set(column.codes, id);
      }
      key += `${id}+${offset} `;
    }
    let codes = mergedCodes.get(key);
    // Columns whose codes and offsets agree in every batch get the same codes (valid for each: every code
    // indexes its own column's dictionary).
    if (codes === undefined) {
      codes = codesFor(values.length, length);
      let start = 0;
      batches.forEach((batch, index) => {
        addOffset(
          (batch[field] as DictionaryColumn<unknown>).codes,
          batch.length,
          batchOffsets[index] as number,
          codes as ColumnCodes,
          start,
        );
        start += batch.length;
      });
      mergedCodes.set(key, codes);
    }
    mergedColumns[field] = { codes, values };
  }
  const columns = mergedColumns as Record<(typeof DICTIONARY_FIELDS)[number], DictionaryColumn<never>>;
  return {
    ...columns,
    length,
    ts: concatArrays(
      batches.map((batch) => batch.ts),
      (size) => new Float64Array(size),
    ),
    rowId: concatArrays(
      batches.map((batch) => batch.rowId),
      (size) => new Uint32Array(size),
    ),
    qtype: concatArrays(
      batches.map((batch) => batch.qtype),
      (size) => new Uint16Array(size),
    ),
    rcode: concatArrays(
      batches.map((batch) => batch.rcode),
      (size) => new Uint8Array(size),
    ),
    dnssecValidated: concatArrays(
      batches.map((batch) => batch.dnssecValidated),
      (size) => new Uint8Array(size),
    ),
    cacheHit: concatArrays(
      batches.map((batch) => batch.cacheHit),
      (size) => new Uint8Array(size),
    ),
    latencyUs: concatArrays(
      batches.map((batch) => batch.latencyUs),
      (size) => new Uint32Array(size),
    ),
  };
}

/** Copies the first `length` codes of `source` into `target` from `start`, each plus `offset`. */
function addOffset(
  source: ColumnCodes,
  length: number,
  offset: number,
  target: ColumnCodes,
  start: number,
): void {
  if (offset === 0 && source.length === length) {
    target.set(source, start);
    return;
  }
  for (let index = 0; index < length; index += 1) target[start + index] = (source[index] as number) + offset;
}
