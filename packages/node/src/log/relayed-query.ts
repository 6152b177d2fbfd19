import type { RecordedQuery } from './query-log-store.js';

/** A relayed query's parameters as the API sends them (docs/node-link-protocol.md, "Relayed queries"). */
export interface RelayedQuery {
  from: number | null;
  to: number;
  devices: string[];
  statuses: string[];
  qname: string | null;
  qnameMatch: 'exact' | 'substring';
  qtypes: number[];
  lists: number[];
  clientIp: string | null;
  limit: number;
  bucketSeconds: number;
  after: { ts: number; rowId: bigint } | null;
}

const DEFAULT_LIMIT = 100;
const DEFAULT_BUCKET_S = 3_600;

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
const integers = (value: unknown): number[] =>
  Array.isArray(value) ? value.filter((item): item is number => Number.isInteger(item)) : [];
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const positive = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback;

/** Reads the parameters the API validated; anything missing takes the widest meaning. */
export function relayedQueryOf(params: Record<string, unknown>): RelayedQuery {
  const from = text(params.from);
  const to = text(params.to);
  const after = params.after as { ts?: unknown; row_id?: unknown } | null | undefined;
  return {
    from: from === null ? null : Date.parse(from),
    to: to === null ? Number.POSITIVE_INFINITY : Date.parse(to),
    devices: strings(params.devices),
    statuses: strings(params.statuses),
    qname: text(params.qname),
    qnameMatch: params.qname_match === 'substring' ? 'substring' : 'exact',
    qtypes: integers(params.qtypes),
    lists: integers(params.lists),
    clientIp: text(params.client_ip),
    limit: positive(params.limit, DEFAULT_LIMIT),
    bucketSeconds: positive(params.bucket_s, DEFAULT_BUCKET_S),
    after:
      after != null && typeof after.ts === 'number' && typeof after.row_id === 'string'
        ? { ts: after.ts, rowId: BigInt(after.row_id) }
        : null,
  };
}

/** Whether a row passes the query's range, filters and cursor position. */
export function matchesQuery(row: RecordedQuery, query: RelayedQuery): boolean {
  const ts = Date.parse(row.ts);
  if ((query.from !== null && ts < query.from) || ts >= query.to) return false;
  if (query.after !== null) {
    const older = ts < query.after.ts || (ts === query.after.ts && BigInt(row.row_id) < query.after.rowId);
    if (!older) return false;
  }
  if (query.devices.length > 0 && !query.devices.includes(row.device_id)) return false;
  if (query.statuses.length > 0 && !query.statuses.includes(row.status)) return false;
  if (query.qtypes.length > 0 && !query.qtypes.includes(row.qtype)) return false;
  if (query.lists.length > 0 && (row.reason_list_id === null || !query.lists.includes(row.reason_list_id)))
    return false;
  if (query.clientIp !== null && row.client_ip !== query.clientIp) return false;
  if (query.qname !== null) {
    const wanted = query.qname.toLowerCase().replace(/\.$/, '');
    if (query.qnameMatch === 'exact' ? row.qname !== wanted : !row.qname.includes(wanted)) return false;
  }
  return true;
}

/** The query with a shape's default statuses when it has no status filter (spec 4.6). */
export function withDefaultStatuses(query: RelayedQuery, statuses: string[]): RelayedQuery {
  return query.statuses.length > 0 ? query : { ...query, statuses };
}
