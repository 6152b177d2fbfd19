import type { DictionaryColumn, QueryLogColumns } from '@svc/domain';
import { type NativeArray, NativeBlockBuilder, type NativeInsert } from './clickhouse.native-block.js';

/**
 * A query_log column (migration 0002) and where its value comes from: a dictionary column of the batch
 * (looked up in its dictionary, items of the given type), or a plain column of the block.
 */
type StoredColumn =
  | readonly [name: string, source: 'dictionary', field: keyof QueryLogColumns, itemType: string]
  | readonly [name: string, source: 'plain', field: keyof QueryLogColumns, stored: (read: string) => string];

const STORED: readonly StoredColumn[] = [
  ['profile_id', 'dictionary', 'profileId', 'String'],
  ['ts', 'plain', 'ts', (read) => `fromUnixTimestamp64Milli(toInt64(${read}), 'UTC')`],
  ['row_id', 'plain', 'rowId', (read) => read],
  ['pop', 'dictionary', 'pop', 'String'],
  ['node', 'dictionary', 'node', 'Nullable(UUID)'],
  ['device_id', 'dictionary', 'deviceId', 'String'],
  ['device_name', 'dictionary', 'deviceName', 'String'],
  ['client_ip', 'dictionary', 'clientIp', 'String'],
  ['transport', 'dictionary', 'transport', 'String'],
  ['qname', 'dictionary', 'qname', 'String'],
  ['qtype', 'plain', 'qtype', (read) => read],
  ['status', 'dictionary', 'status', 'String'],
  ['reason_list_id', 'dictionary', 'reasonListId', 'Nullable(UInt16)'],
  ['reason_list_name', 'dictionary', 'reasonListName', 'String'],
  ['reason_rule', 'dictionary', 'reasonRule', 'String'],
  ['operator_code', 'dictionary', 'operatorCode', 'String'],
  ['rcode', 'plain', 'rcode', (read) => read],
  ['dnssec_validated', 'plain', 'dnssecValidated', (read) => `${read} = 1`],
  ['cache_hit', 'plain', 'cacheHit', (read) => `${read} = 1`],
  ['latency_us', 'plain', 'latencyUs', (read) => read],
  ['answer_ips', 'dictionary', 'answerIps', 'Array(String)'],
];

/**
 * A batch as one Native block and the statement (without its FROM) storing it in query_log: the typed
 * arrays travel as they are and the strings once per batch, so the engine builds the stored columns at its
 * own speed (measured: a 500,000-row batch stored about 4 times faster than as JSONCompactColumns).
 */
export function queryLogInsert(
  batch: QueryLogColumns,
  retentionDays: number,
): NativeInsert & { sql: string } {
  const builder = new NativeBlockBuilder(batch.length);
  const selected = STORED.map(([name, source, field, detail]) => {
    if (source === 'plain') {
      const array = batch[field] as NativeArray;
      return detail(builder.column(name, array, name === 'row_id' ? 'UInt64' : undefined));
    }
    const column = batch[field] as DictionaryColumn<unknown>;
    return builder.lookup(name, detail, column.codes, column.values);
  });
  builder.bind('retention', retentionDays);
  return {
    ...builder.build(),
    sql: `INSERT INTO query_log (${STORED.map(([name]) => name).join(', ')}, retention_days)
          SELECT ${selected.join(', ')}, {retention:UInt8}`,
  };
}
