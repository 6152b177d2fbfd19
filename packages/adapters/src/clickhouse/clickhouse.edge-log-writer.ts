import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { DeviceHourlyCount, EdgeLogWriter, HourlyTotal, QueryLogRow } from '@svc/domain';
import { type StorageCallTracer, untracedStorageCalls } from '../tracing/storage-call-tracer.js';
import type { ClickHouseColumnarStore } from './clickhouse.columnar-store.js';
import { NativeBlockBuilder } from './clickhouse.native-block.js';
import { queryLogInsert } from './clickhouse.query-log.native.js';
import { type QueryLogColumns, queryLogColumnsOf } from './query-log-columns.js';

/** A text as a ClickHouse string literal. */
function literal(text: string): string {
  return `'${text.replace(/[\\']/g, '\\$&')}'`;
}

/** Distinguishes the staged files of one process. */
let staged = 0;

/** Whole seconds of the time `timeOf` gives for each item. */
function seconds<T>(items: readonly T[], timeOf: (item: T) => Date): Uint32Array {
  const result = new Uint32Array(items.length);
  for (let index = 0; index < items.length; index += 1)
    result[index] = Math.floor(timeOf(items[index] as T).getTime() / 1000);
  return result;
}

/** The number `numberOf` gives for each item. */
function numbers<T>(items: readonly T[], numberOf: (item: T) => number): Float64Array {
  const result = new Float64Array(items.length);
  for (let index = 0; index < items.length; index += 1) result[index] = numberOf(items[index] as T);
  return result;
}

/** Codes of the text `textOf` gives for each item into their distinct values, for a dictionary column. */
function dictionary<T>(
  items: readonly T[],
  textOf: (item: T) => string,
): { codes: Uint32Array; values: string[] } {
  const values: string[] = [];
  const seen = new Map<string, number>();
  const codes = new Uint32Array(items.length);
  // Counts come grouped by profile: most texts repeat the one before, which needs no lookup.
  let last: string | undefined;
  let lastCode = 0;
  for (let index = 0; index < items.length; index += 1) {
    const text = textOf(items[index] as T);
    if (text !== last) {
      let code = seen.get(text);
      if (code === undefined) {
        code = values.length;
        values.push(text);
        seen.set(text, code);
      }
      last = text;
      lastCode = code;
    }
    codes[index] = lastCode;
  }
  return { codes, values };
}

/**
 * The edge writer on the columnar store (embedded chdb or a ClickHouse server): query-log batches as Native
 * blocks ({@link queryLogInsert}), the hourly counts likewise, into query_log,
 * query_totals_hourly and device_counts_hourly (migration 0002). The store is opened on first write.
 */
export class ClickHouseEdgeLogWriter implements EdgeLogWriter {
  constructor(
    private readonly store: () => Promise<ClickHouseColumnarStore>,
    /** Makes each batch insert a `clickhouse INSERT` span. */
    private readonly tracer: StorageCallTracer = untracedStorageCalls,
  ) {}

  async writeRows(rows: readonly QueryLogRow[], retentionDays: number): Promise<void> {
    if (rows.length === 0) return;
    await this.writeColumns(queryLogColumnsOf(rows), retentionDays);
  }

  /** Appends query rows given column by column (bulk writers: the edge simulator); as {@link writeRows}. */
  async writeColumns(batch: QueryLogColumns, retentionDays: number): Promise<void> {
    if (batch.length === 0) return;
    if (!Number.isInteger(retentionDays) || retentionDays < 1 || retentionDays > 90)
      throw new RangeError('retention days are an integer from 1 to 90');
    const insert = queryLogInsert(batch, retentionDays);
    await this.send(insert.sql, 'Native', insert.structure, insert.block, insert.params);
    // Once stored, so that a tail answered from memory never shows a row the store does not hold.
    (await this.store()).newestRows?.recorded(batch);
  }

  async writeHourlyTotals(totals: readonly HourlyTotal[]): Promise<void> {
    if (totals.length === 0) return;
    const builder = new NativeBlockBuilder(totals.length);
    const profiles = dictionary(totals, (total) => total.profileId);
    const statuses = dictionary(totals, (total) => total.status);
    const profile = builder.lowCardinality('profile_id', profiles.codes, profiles.values);
    const hour = builder.column(
      'hour',
      seconds(totals, (total) => total.hour),
    );
    const status = builder.lowCardinality('status', statuses.codes, statuses.values);
    const count = builder.column(
      'count',
      numbers(totals, (total) => total.count),
    );
    await this.insertTotals(builder, { profile, hour, status, count });
  }

  async writeDeviceCounts(counts: readonly DeviceHourlyCount[]): Promise<void> {
    if (counts.length === 0) return;
    const builder = new NativeBlockBuilder(counts.length);
    const profiles = dictionary(counts, (count) => count.profileId);
    const devices = dictionary(counts, (count) => count.deviceId);
    const profile = builder.lowCardinality('profile_id', profiles.codes, profiles.values);
    const hour = builder.column(
      'hour',
      seconds(counts, (count) => count.hour),
    );
    const device = builder.lookup('device_id', 'String', devices.codes, devices.values);
    const queries = builder.column(
      'queries',
      numbers(counts, (count) => count.queries),
    );
    const blocked = builder.column(
      'blocked',
      numbers(counts, (count) => count.blocked),
    );
    await this.insertDeviceCounts(builder, { profile, hour, device, queries, blocked });
  }

  /**
   * Inserts a block of hourly totals; `columns` are the builder's expressions for each column. Public for
   * bulk writers that build their blocks from columns of their own (the edge simulator).
   */
  async insertTotals(
    builder: NativeBlockBuilder,
    columns: { profile: string; hour: string; status: string; count: string },
  ): Promise<void> {
    const { profile, hour, status, count } = columns;
    const insert = builder.build();
    await this.send(
      `INSERT INTO query_totals_hourly (profile_id, hour, status, count)
       SELECT ${profile}, toDateTime(${hour}, 'UTC'), ${status}, toUInt64(${count})`,
      'Native',
      insert.structure,
      insert.block,
      insert.params,
    );
  }

  /** Inserts a block of per-device hourly counts, as {@link insertTotals}. */
  async insertDeviceCounts(
    builder: NativeBlockBuilder,
    columns: { profile: string; hour: string; device: string; queries: string; blocked: string },
  ): Promise<void> {
    const { profile, hour, device, queries, blocked } = columns;
    const insert = builder.build();
    await this.send(
      `INSERT INTO device_counts_hourly (profile_id, hour, device_id, queries, blocked)
       SELECT ${profile}, toDateTime(${hour}, 'UTC'), ${device}, toUInt64(${queries}), toUInt64(${blocked})`,
      'Native',
      insert.structure,
      insert.block,
      insert.params,
    );
  }

  /**
   * Runs `insert` (an `INSERT … SELECT …` without its FROM) reading `payload` in `format` with `structure`.
   * A server reads it as the request body (the `input` table function); embedded chdb reads it from a file
   * staged in the store's folder: its insert API takes text formats only, and it parses a body sent with the
   * statement several times slower than a file it reads itself.
   */
  private async send(
    insert: string,
    format: string,
    structure: string,
    payload: readonly Uint8Array[],
    params: Record<string, unknown>,
  ): Promise<void> {
    await this.tracer('clickhouse INSERT', { 'db.system': 'clickhouse', 'db.operation': 'INSERT' }, () =>
      this.sendUntraced(insert, format, structure, payload, params),
    );
  }

  private async sendUntraced(
    insert: string,
    format: string,
    structure: string,
    payload: readonly Uint8Array[],
    params: Record<string, unknown>,
  ): Promise<void> {
    const store = await this.store();
    if (store.embeddedPath === undefined) {
      const result = await store.client.exec({
        query: `${insert} FROM input(${literal(structure)}) FORMAT ${format}`,
        query_params: params,
        values: Readable.from(payload, { objectMode: false }),
      });
      // Nothing to read from an insert: release the connection at once.
      result.stream.destroy();
      return;
    }
    staged += 1;
    const file = join(store.embeddedPath, `svc-insert-${process.pid}-${staged}.${format.toLowerCase()}`);
    const handle = await open(file, 'w', 0o600);
    try {
      await handle.writev([...payload]);
    } finally {
      await handle.close();
    }
    try {
      await store.client.command({
        query: `${insert} FROM file(${literal(file)}, '${format}', ${literal(structure)})`,
        query_params: params,
      });
    } finally {
      await rm(file, { force: true });
    }
  }
}
