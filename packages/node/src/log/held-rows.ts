import type { RecordedQuery } from './query-log-store.js';

const TRANSPORTS: readonly RecordedQuery['transport'][] = ['doh', 'doh3', 'dot', 'doq', 'do53'];
const STATUSES: readonly RecordedQuery['status'][] = ['allowed', 'blocked', 'rewritten', 'error'];
const OPERATOR_CODES: readonly RecordedQuery['operator_code'][] = ['', 'legal_order', 'abuse', 'csam'];

const text = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);
const count = (value: unknown): number => (typeof value === 'number' && Number.isInteger(value) ? value : 0);
const oneOf = <T extends string>(values: readonly T[], value: unknown): T | undefined =>
  values.find((candidate) => candidate === value);

/**
 * A held row (`NodeLogRow`, spec 2.3 node_queue_hours) as this node records it, or null when it lacks what
 * orders and decides it (time, id, name, type, status, transport). Optional fields take the row's defaults.
 */
export function recordedQueryOf(row: Record<string, unknown>): RecordedQuery | null {
  const ts = text(row.ts);
  const rowId = text(row.row_id);
  const transport = oneOf(TRANSPORTS, row.transport);
  const status = oneOf(STATUSES, row.status);
  if (
    Number.isNaN(Date.parse(ts)) ||
    !/^\d{1,19}$/.test(rowId) ||
    typeof row.qname !== 'string' ||
    !Number.isInteger(row.qtype) ||
    transport === undefined ||
    status === undefined
  )
    return null;
  return {
    ts: new Date(ts).toISOString(),
    row_id: rowId,
    pop: text(row.pop, 'node'),
    device_id: text(row.device_id),
    device_name: text(row.device_name),
    client_ip: text(row.client_ip),
    transport,
    qname: row.qname,
    qtype: count(row.qtype),
    status,
    reason_list_id: Number.isInteger(row.reason_list_id) ? count(row.reason_list_id) : null,
    reason_list_name: text(row.reason_list_name),
    reason_rule: text(row.reason_rule),
    operator_code: oneOf(OPERATOR_CODES, row.operator_code) ?? '',
    rcode: count(row.rcode),
    dnssec_validated: row.dnssec_validated === true,
    cache_hit: row.cache_hit === true,
    latency_us: count(row.latency_us),
    answer_ips: Array.isArray(row.answer_ips)
      ? row.answer_ips.filter((ip): ip is string => typeof ip === 'string')
      : [],
  };
}
