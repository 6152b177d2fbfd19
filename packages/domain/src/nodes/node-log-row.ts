import { z } from 'zod';
import {
  DECIDED_BY_PATTERN,
  OPERATOR_CODES,
  QUERY_STATUSES,
  QUERY_TRANSPORTS,
  type QueryLogRow,
  storedColumnsOf,
} from '../query-log/query-log-row.js';
import { queryNameProblem } from './logged-query-name.js';

/**
 * Most addresses a row's `answer_ips` may list: every A record a DNS message can carry (a message is at most
 * 65,535 octets and an A record at least 16 with a compressed owner name: (65,535 − 12 − 5) / 16 = 4,094),
 * rounded up, so that a row a conformant resolver logs is never refused for its answer's length.
 */
export const NODE_LOG_ANSWER_IPS_ACCEPTED = 4096;
/**
 * Most addresses the cloud keeps of one row's answer (the first ones, in the answer's order); the log batch's
 * acknowledgement counts the rows cut (`truncated`), docs/node-link-protocol.md.
 */
export const NODE_LOG_ANSWER_IPS_KEPT = 64;
/** Longest qname text: 255 wire octets written with `\DDD` escapes take at most about 1,000 characters. */
const QNAME_MAX_LENGTH = 1024;

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
  answer_ips: z.array(z.string().max(64)).max(NODE_LOG_ANSWER_IPS_ACCEPTED).default([]),
  /** The policy that decided (issue 38); nodes older than it send none. */
  decided_by: z
    .string()
    .regex(DECIDED_BY_PATTERN, 'must be at most 100 characters of a-z, 0-9 and :._~-')
    .optional(),
});
export type NodeLogRow = z.infer<typeof NodeLogRow>;

const IP_ADDRESS_MESSAGE = 'must be an IPv4 or IPv6 address';
const ipv4 = z.ipv4();
const ipv6 = z.ipv6();
/** True for an IPv4 or IPv6 address as zod reads them (no zone index, no brackets, no port). */
function isIpAddress(text: string): boolean {
  return ipv4.safeParse(text).success || ipv6.safeParse(text).success;
}
const IpAddress = z.string().max(64).refine(isIpAddress, { error: IP_ADDRESS_MESSAGE });

/**
 * A row of a log batch, which the cloud stores: a {@link NodeLogRow} whose `qname` is a DNS name (or empty,
 * when the profile does not log names) and whose `client_ip` (or empty) and `answer_ips` are IP addresses. A
 * row failing it is refused on its own (docs/node-link-protocol.md `log_batch_ack`).
 */
export const NodeLogBatchRow = NodeLogRow.extend({
  client_ip: z
    .string()
    .max(64)
    .refine((ip) => ip === '' || isIpAddress(ip), { error: IP_ADDRESS_MESSAGE })
    .default(''),
  qname: z
    .string()
    .max(QNAME_MAX_LENGTH)
    .superRefine((qname, context) => {
      const problem = queryNameProblem(qname);
      if (problem !== null) context.addIssue({ code: 'custom', message: problem });
    }),
  answer_ips: z.array(IpAddress).max(NODE_LOG_ANSWER_IPS_ACCEPTED).default([]),
});
export type NodeLogBatchRow = z.infer<typeof NodeLogBatchRow>;

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
    decidedBy: row.decided_by ?? '',
  };
}

/** A row the cloud edge recorded, in the form a node records its own (the offline hold's `held_logs`). */
export function nodeLogRowOf(row: QueryLogRow): NodeLogRow {
  const decidedBy = row.decidedBy ?? '';
  return {
    ts: row.ts.toISOString(),
    ...storedColumnsOf(row),
    ...(decidedBy === '' ? {} : { decided_by: decidedBy }),
  };
}
