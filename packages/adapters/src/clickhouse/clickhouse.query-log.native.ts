import { type NativeArray, NativeBlockBuilder, type NativeInsert } from './clickhouse.native-block.js';
import type { DictionaryColumn, QueryLogColumns } from './query-log-columns.js';

/**
 * A query_log column (migration 0002) and where its value comes from: a dictionary column of the batch sent
 * as a LowCardinality column (the table's LowCardinality(String) columns, migration 0003), one looked up in
 * its dictionary (items of the given type), or a plain column of the block.
 */
type StoredColumn =
  | readonly [name: string, source: 'lowCardinality', field: keyof QueryLogColumns]
  | readonly [name: string, source: 'dictionary', field: keyof QueryLogColumns, itemType: string]
  | readonly [name: string, source: 'plain', field: keyof QueryLogColumns, stored: (read: string) => string];

const STORED: readonly StoredColumn[] = [
  ['profile_id', 'lowCardinality', 'profileId'],
  ['ts', 'plain', 'ts', (read) => `fromUnixTimestamp64Milli(toInt64(${read}), 'UTC')`],
  ['row_id', 'plain', 'rowId', (read) => read],
  ['pop', 'lowCardinality', 'pop'],
  ['node', 'dictionary', 'node', 'Nullable(UUID)'],
  ['device_id', 'lowCardinality', 'deviceId'],
  ['device_name', 'lowCardinality', 'deviceName'],
  ['client_ip', 'lowCardinality', 'clientIp'],
  ['transport', 'lowCardinality', 'transport'],
  ['qname', 'lowCardinality', 'qname'],
  ['qtype', 'plain', 'qtype', (read) => read],
  ['status', 'lowCardinality', 'status'],
  ['reason_list_id', 'dictionary', 'reasonListId', 'Nullable(UInt16)'],
  ['reason_list_name', 'lowCardinality', 'reasonListName'],
  ['reason_rule', 'lowCardinality', 'reasonRule'],
  ['operator_code', 'lowCardinality', 'operatorCode'],
  ['rcode', 'plain', 'rcode', (read) => read],
  ['dnssec_validated', 'plain', 'dnssecValidated', (read) => `${read} = 1`],
  ['cache_hit', 'plain', 'cacheHit', (read) => `${read} = 1`],
  ['latency_us', 'plain', 'latencyUs', (read) => read],
  ['answer_ips', 'dictionary', 'answerIps', 'Array(String)'],
  ['decided_by', 'lowCardinality', 'decidedBy'],
];

/**
 * A batch as one Native block and the statement (without its FROM) storing it in query_log: the typed
 * arrays travel as they are and the strings once per batch, so the engine builds the stored columns at its
 * own speed: several times faster than JSONCompactColumns, and LowCardinality columns sent as such cost the
 * engine a fraction of looking each row's text up.
 */
export function queryLogInsert(
  batch: QueryLogColumns,
  retentionDays: number,
): NativeInsert & { sql: string } {
  const builder = new NativeBlockBuilder(batch.length);
  const selected = STORED.map((stored) => {
    if (stored[1] === 'plain') {
      const [name, , field, read] = stored;
      return read(
        builder.column(name, batch[field] as NativeArray, name === 'row_id' ? 'UInt64' : undefined),
      );
    }
    const column = batch[stored[2]] as DictionaryColumn<unknown>;
    if (stored[1] === 'lowCardinality')
      return builder.lowCardinality(stored[0], column.codes, column.values as readonly string[]);
    return builder.lookup(stored[0], stored[3], column.codes, column.values);
  });
  builder.bind('retention', retentionDays);
  return {
    ...builder.build(),
    sql: `INSERT INTO query_log (${STORED.map(([name]) => name).join(', ')}, retention_days)
          SELECT ${selected.join(', ')}, {retention:UInt8}`,
  };
}
