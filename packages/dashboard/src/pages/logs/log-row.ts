import { type QueryResult, queryRecords } from '@svc/sdk';

/** One row of a log query (spec 2.11), read by column name. */
export interface LogRow {
  ts: string;
  source: string;
  pop: string;
  node: string | null;
  device_id: string;
  device_name: string;
  client_ip: string;
  transport: string;
  qname: string;
  qtype: number;
  status: string;
  reason_list_id: number | null;
  reason_rule: string;
  rcode: number;
  dnssec_validated: boolean;
  cache_hit: boolean;
  latency_us: number;
  answer_ips: string[];
  reason: string;
  reason_code: string;
  ede_code: number;
  ede_text: string;
  /** The policy that decided (issue 38): '', 'paused', 'allowance', 'schedule:<name>' or 'device:<id>'. */
  decided_by: string;
}

const text = (value: unknown) =>
  typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
const integer = (value: unknown) => (typeof value === 'number' ? value : Number(value ?? 0));

/**
 * The rows of a log result as {@link LogRow}s. Cells are read by name and coerced to the column's meaning, so
 * that a column a newer server adds, or one it leaves out, never breaks the page (spec 9.3).
 */
export function logRowsOf(result: Pick<QueryResult, 'columns' | 'rows'>): LogRow[] {
  return queryRecords(result).map((record) => {
    const list = record.reason_list_id;
    const answers = record.answer_ips;
    return {
      ts: text(record.ts),
      source: text(record.source),
      pop: text(record.pop),
      node: record.node === null || record.node === undefined ? null : text(record.node),
      device_id: text(record.device_id),
      device_name: text(record.device_name),
      client_ip: text(record.client_ip),
      transport: text(record.transport),
      qname: text(record.qname),
      qtype: integer(record.qtype),
      status: text(record.status),
      reason_list_id: list === null || list === undefined || list === 0 ? null : integer(list),
      reason_rule: text(record.reason_rule),
      rcode: integer(record.rcode),
      dnssec_validated: record.dnssec_validated === true,
      cache_hit: record.cache_hit === true,
      latency_us: integer(record.latency_us),
      answer_ips: Array.isArray(answers) ? answers.map(text) : [],
      reason: text(record.reason),
      reason_code: text(record.reason_code),
      ede_code: integer(record.ede_code),
      ede_text: text(record.ede_text),
      decided_by: text(record.decided_by),
    };
  });
}
