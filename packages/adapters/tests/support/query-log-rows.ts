import { type LogPosition, noLogFilters, type QueryLogRow, type RowQuery } from '@svc/domain';

/** A stored query of `profileId` at `ts` (Unix ms) with id `rowId`; the other columns as a resolver writes them. */
export function logRow(profileId: string, ts: number, rowId: number | bigint | string): QueryLogRow {
  return {
    profileId,
    ts: new Date(ts),
    rowId: String(rowId),
    pop: 'yyz',
    node: null,
    deviceId: 'laptop',
    deviceName: 'laptop',
    clientIp: '192.0.2.7',
    transport: 'doh',
    qname: `n${rowId}.example`,
    qtype: 1,
    status: 'allowed',
    reasonListId: null,
    reasonListName: '',
    reasonRule: '',
    operatorCode: '',
    rcode: 0,
    dnssecValidated: true,
    cacheHit: false,
    latencyUs: 1200,
    answerIps: ['192.0.2.80'],
  };
}

/** A tail of `profileId` without filters, below `to`, from `from` when given, after `position` when given. */
export function tailQuery(
  profileId: string,
  options: { to: number; from?: number; position?: LogPosition | null },
): RowQuery {
  return {
    shape: 'tail',
    profileId,
    range: { from: options.from === undefined ? null : new Date(options.from), to: new Date(options.to) },
    filters: noLogFilters(),
    limit: 100,
    bucketSeconds: 0,
    position: options.position ?? null,
  };
}
