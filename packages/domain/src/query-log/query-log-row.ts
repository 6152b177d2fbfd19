/**
 * One query as the edge (or a self-hosted node) recorded it: the stored columns of spec 2.11 plus what the
 * derived columns need. This is the contract between whoever writes query logs (edge writer, simulator,
 * node log batches) and whoever reads them (the query planner and the columnar adapter).
 */
export interface QueryLogRow {
  profileId: string;
  /** When the resolver answered. Millisecond precision. */
  ts: Date;
  /**
   * Unique per row (a 63-bit integer as a decimal string, so that no precision is lost in JavaScript):
   * the tie-break of keyset cursors among rows of the same millisecond.
   */
  rowId: string;
  /** PoP id as in the PoP catalogue; `node` for a query a self-hosted node answered; empty when unknown. */
  pop: string;
  /** Node uuid for rows a self-hosted node recorded; null for cloud rows. */
  node: string | null;
  /** Device id (spec 2.5); empty when the query carried no device. */
  deviceId: string;
  /** The name the client sent (sanitised); the display name is applied when reading. */
  deviceName: string;
  clientIp: string;
  transport: QueryTransport;
  qname: string;
  qtype: number;
  status: QueryStatus;
  /** Blocking list id when a list decided; null otherwise. */
  reasonListId: number | null;
  /** The list's name when a list decided (kept with the row: names can change); empty otherwise. */
  reasonListName: string;
  /** The rule text for rule blocks and rewrites, the operator block's text for operator blocks; else empty. */
  reasonRule: string;
  /** `legal_order`, `abuse` or `csam` when an operator block decided; empty otherwise. */
  operatorCode: OperatorCode | '';
  /** DNS response code (0 NOERROR, 2 SERVFAIL, 3 NXDOMAIN, 5 REFUSED, …). */
  rcode: number;
  dnssecValidated: boolean;
  cacheHit: boolean;
  latencyUs: number;
  /** Answer addresses, IPv4 and IPv6, in answer order. */
  answerIps: string[];
  /**
   * The policy that decided beyond the reason code (issue 38, ADR 0045): `paused`, `allowance`,
   * `schedule:<name>`, `device:<id>`; absent or empty when the reason code says it all (rows of older writers).
   */
  decidedBy?: string;
}

/** A `decided_by` value as stored and filtered: at most 100 characters of `[a-z0-9:._~-]`. */
export const DECIDED_BY_PATTERN = /^[a-z0-9:._~-]{0,100}$/;

export const QUERY_STATUSES = ['allowed', 'blocked', 'rewritten', 'error'] as const;
export type QueryStatus = (typeof QUERY_STATUSES)[number];

export const QUERY_TRANSPORTS = ['doh', 'doh3', 'dot', 'doq', 'do53'] as const;
export type QueryTransport = (typeof QUERY_TRANSPORTS)[number];

export const OPERATOR_CODES = ['legal_order', 'abuse', 'csam'] as const;
export type OperatorCode = (typeof OPERATOR_CODES)[number];

/** One hour of a profile's queries as the edge counted them, by status (kept for every log destination). */
export interface HourlyTotal {
  profileId: string;
  /** Start of the hour (UTC, whole hour). */
  hour: Date;
  status: QueryStatus;
  count: number;
}

/**
 * A row's stored columns under their spec 2.11 names, except `profile_id`, `ts` and `node`, whose form and
 * presence each use decides (an archive line, a node's row, an insert).
 */
export function storedColumnsOf(row: QueryLogRow) {
  return {
    row_id: row.rowId,
    pop: row.pop,
    device_id: row.deviceId,
    device_name: row.deviceName,
    client_ip: row.clientIp,
    transport: row.transport,
    qname: row.qname,
    qtype: row.qtype,
    status: row.status,
    reason_list_id: row.reasonListId,
    reason_list_name: row.reasonListName,
    reason_rule: row.reasonRule,
    operator_code: row.operatorCode,
    rcode: row.rcode,
    dnssec_validated: row.dnssecValidated,
    cache_hit: row.cacheHit,
    latency_us: row.latencyUs,
    answer_ips: row.answerIps,
  };
}
