import { type ClickHouseEdgeLogWriter, NativeBlockBuilder, type QueryLogColumns } from '@svc/adapters';
import { QUERY_STATUSES } from '@svc/domain';
import type { HourlyCountColumns, SimulatedLogWriter } from './simulated-log-writer.ports.js';

/** The distinct profile ids of count parts, and the code of each part's. */
function profileCodes(parts: readonly HourlyCountColumns[]): { codes: Uint32Array; values: string[] } {
  const values: string[] = [];
  const seen = new Map<string, number>();
  const codes = Uint32Array.from(parts, (part) => {
    let code = seen.get(part.profileId);
    if (code === undefined) {
      code = values.length;
      values.push(part.profileId);
      seen.set(part.profileId, code);
    }
    return code;
  });
  return { codes, values };
}

/** One column of count parts laid end to end: where each part starts, and its arrays concatenated. */
function gather(parts: readonly HourlyCountColumns[], rowsOf: (part: HourlyCountColumns) => number) {
  const starts: number[] = [];
  let rows = 0;
  for (const part of parts) {
    starts.push(rows);
    rows += rowsOf(part);
  }
  return {
    rows,
    starts,
    concat<A extends Uint8Array | Uint32Array | Float64Array>(
      make: new (length: number) => A,
      arrayOf: (part: HourlyCountColumns) => A,
    ): A {
      const all = new make(rows);
      parts.forEach((part, index) => {
        all.set(arrayOf(part), starts[index] as number);
      });
      return all;
    },
    /** Each row's profile code, from the code of its part. */
    codesOf(profiles: { codes: Uint32Array; values: readonly string[] }): Uint16Array | Uint32Array {
      const codes = profiles.values.length <= 0x1_0000 ? new Uint16Array(rows) : new Uint32Array(rows);
      parts.forEach((_part, index) => {
        const end = index + 1 < parts.length ? (starts[index + 1] as number) : rows;
        codes.fill(profiles.codes[index] as number, starts[index] as number, end);
      });
      return codes;
    },
  };
}

/**
 * {@link SimulatedLogWriter} on the columnar store (embedded chdb or a ClickHouse server), through the edge's
 * own ClickHouse writer: query-log batches as they are, and the hourly counts of several runs as one Native
 * block per table, built from their typed columns.
 */
export class ClickHouseSimulatedLogWriter implements SimulatedLogWriter {
  constructor(private readonly writer: ClickHouseEdgeLogWriter) {}

  writeColumns(batch: QueryLogColumns, retentionDays: number): Promise<void> {
    return this.writer.writeColumns(batch, retentionDays);
  }

  async writeCountColumns(counts: readonly HourlyCountColumns[]): Promise<void> {
    // In profile order, each part being in key order already: the engine then finds every block sorted.
    const parts = [...counts].sort((a, b) =>
      a.profileId < b.profileId ? -1 : a.profileId > b.profileId ? 1 : 0,
    );
    const profiles = profileCodes(parts);
    const totals = gather(parts, (part) => part.totals.hour.length);
    if (totals.rows > 0) {
      const builder = new NativeBlockBuilder(totals.rows);
      const profile = builder.lowCardinality('profile_id', totals.codesOf(profiles), profiles.values);
      const hour = builder.column(
        'hour',
        totals.concat(Uint32Array, (part) => part.totals.hour),
      );
      const status = builder.lowCardinality(
        'status',
        totals.concat(Uint8Array, (part) => part.totals.status),
        QUERY_STATUSES,
      );
      const count = builder.column(
        'count',
        totals.concat(Float64Array, (part) => part.totals.count),
      );
      await this.writer.insertTotals(builder, { profile, hour, status, count });
    }
    const devices = gather(parts, (part) => part.devices.hour.length);
    if (devices.rows > 0) {
      const builder = new NativeBlockBuilder(devices.rows);
      const profile = builder.lowCardinality('profile_id', devices.codesOf(profiles), profiles.values);
      const hour = builder.column(
        'hour',
        devices.concat(Uint32Array, (part) => part.devices.hour),
      );
      const deviceIds: string[] = [];
      const deviceCodes = new Uint32Array(devices.rows);
      parts.forEach((part, index) => {
        const offset = deviceIds.length;
        for (const id of part.deviceIds) deviceIds.push(id);
        const start = devices.starts[index] as number;
        const codes = part.devices.device;
        for (let row = 0; row < codes.length; row += 1)
          deviceCodes[start + row] = (codes[row] as number) + offset;
      });
      const device = builder.lookup('device_id', 'String', deviceCodes, deviceIds);
      const queries = builder.column(
        'queries',
        devices.concat(Float64Array, (part) => part.devices.queries),
      );
      const blocked = builder.column(
        'blocked',
        devices.concat(Float64Array, (part) => part.devices.blocked),
      );
      await this.writer.insertDeviceCounts(builder, { profile, hour, device, queries, blocked });
    }
  }
}
