import { z } from 'zod';
import {
  OPERATOR_CODES,
  QUERY_STATUSES,
  QUERY_TRANSPORTS,
  type QueryLogRow,
  storedColumnsOf,
} from '../query-log/query-log-row.js';

/**
 * One query as a self-hosted node recorded it, as it sends it in a relayed log answer (docs/node-link-protocol.md):
 * the stored columns of spec 2.11 in snake_case, without what the API knows itself (the node, the profile).
 * The API computes the derived columns and the device's display name, so that node rows read exactly like
 * cloud rows whatever the node's version.
 */
export const NodeLogRow = z.object({
  ts: z.iso.datetime(),
  row_id: z.string().regex(/^\d{1,19}$/),
  pop: z.string().max(64).default('node'),
  device_id: z.string().max(64).default(''),
  device_name: z.string().max(64).default(''),
  client_ip: z.string().max(64).default(''),
  transport: z.enum(QUERY_TRANSPORTS),
  qname: z.string().max(255),
  qtype: z.int().min(0).max(65535),
  status: z.enum(QUERY_STATUSES),
  reason_list_id: z.int().nullable().default(null),
  reason_list_name: z.string().max(200).default(''),
  reason_rule: z.string().max(300).default(''),
  operator_code: z.enum([...OPERATOR_CODES, '']).default(''),
  rcode: z.int().min(0).max(4095),
  dnssec_validated: z.boolean().default(false),
  cache_hit: z.boolean().default(false),
  latency_us: z.int().min(0).default(0),
  answer_ips: z.array(z.string().max(64)).max(64).default([]),
});
export type NodeLogRow = z.infer<typeof NodeLogRow>;

/** The stored form of a node's row, with the node and profile the API knows. */
export function queryLogRowOfNode(row: NodeLogRow, nodeId: string, profileId: string): QueryLogRow {
  return {
    profileId,
    ts: new Date(row.ts),
    rowId: row.row_id,
    pop: row.pop,
    node: nodeId,
    deviceId: row.device_id,
    deviceName: row.device_name,
    clientIp: row.client_ip,
    transport: row.transport,
    qname: row.qname,
    qtype: row.qtype,
    status: row.status,
    reasonListId: row.reason_list_id,
    reasonListName: row.reason_list_name,
    reasonRule: row.reason_rule,
    operatorCode: row.operator_code,
    rcode: row.rcode,
    dnssecValidated: row.dnssec_validated,
    cacheHit: row.cache_hit,
    latencyUs: row.latency_us,
    answerIps: row.answer_ips,
  };
}

/** A row the cloud edge recorded, in the form a node records its own (the offline hold's `held_logs`). */
export function nodeLogRowOf(row: QueryLogRow): NodeLogRow {
  return { ts: row.ts.toISOString(), ...storedColumnsOf(row) };
}
