import type { QueryLogRow } from '@svc/domain';

const HOUR_MS = 60 * 60 * 1000;

/**
 * `count` log rows of a profile, one a second ending an hour ago by the wall clock (oldest first): the
 * columnar store expires rows by its own clock (TTL), whatever the API's manual clock says, so older rows
 * could vanish by themselves.
 */
export function recentLogRows(profileId: string, count: number): QueryLogRow[] {
  const base = Date.now() - HOUR_MS - count * 1000;
  return Array.from({ length: count }, (_, index) => ({
    profileId,
    ts: new Date(base + index * 1000),
    rowId: String(index + 1),
    pop: 'fra',
    node: null,
    deviceId: 'dev1',
    deviceName: 'Laptop',
    clientIp: '192.0.2.1',
    transport: 'doh' as const,
    qname: `n${index}.example`,
    qtype: 1,
    status: index % 2 === 0 ? ('allowed' as const) : ('blocked' as const),
    reasonListId: null,
    reasonListName: '',
    reasonRule: '',
    operatorCode: '' as const,
    rcode: 0,
    dnssecValidated: false,
    cacheHit: false,
    latencyUs: 1000,
    answerIps: ['192.0.2.53'],
  }));
}
