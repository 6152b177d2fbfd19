import type { LogQueryOptions, QueryStatus } from '@svc/sdk';

/** The statuses a log row can have (spec 2.11), in the order the filters show them. */
export const STATUSES: readonly QueryStatus[] = ['allowed', 'blocked', 'rewritten', 'error'];

/** Names of the common DNS query types, for typing `AAAA` rather than 28. */
const QTYPE_NUMBERS: Readonly<Record<string, number>> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  SRV: 33,
  NAPTR: 35,
  DS: 43,
  DNSKEY: 48,
  SVCB: 64,
  HTTPS: 65,
  ANY: 255,
  CAA: 257,
};
const QTYPE_NAMES: ReadonlyMap<number, string> = new Map(
  Object.entries(QTYPE_NUMBERS).map(([name, number]) => [number, name]),
);

/** A query type's name, or `TYPE<n>` for the others (RFC 3597's form). */
export function qtypeName(qtype: number): string {
  return QTYPE_NAMES.get(qtype) ?? `TYPE${qtype}`;
}

/**
 * What the logs page shows: the live tail or a search, with the filters of spec 4.6. It lives in the page's
 * address (`?mode=search&status=blocked&qname=ads`), so that a filtered view can be linked to and reloaded.
 */
export interface LogView {
  mode: 'live' | 'search';
  /** RFC 3339 or Unix milliseconds, as the API takes them; search only. */
  from: string | undefined;
  to: string | undefined;
  device: string[];
  status: string[];
  qname: string | undefined;
  /** Names or numbers as typed (`AAAA`, `65`). */
  qtype: string[];
  list: string[];
  client_ip: string | undefined;
}

const optional = (value: string | null) => (value === null || value.trim() === '' ? undefined : value.trim());

/** The view in the page's query string (unknown parameters are ignored). */
export function logViewOf(search: string): LogView {
  const params = new URLSearchParams(search);
  return {
    mode: params.get('mode') === 'search' ? 'search' : 'live',
    from: optional(params.get('from')),
    to: optional(params.get('to')),
    device: params.getAll('device').filter((value) => value !== ''),
    status: params.getAll('status').filter((value) => value !== ''),
    qname: optional(params.get('qname')),
    qtype: params.getAll('qtype').filter((value) => value !== ''),
    list: params.getAll('list').filter((value) => value !== ''),
    client_ip: optional(params.get('client_ip')),
  };
}

/** The query string of a view (without the `?`), filters in a stable order. */
export function searchOf(view: LogView): string {
  const params = new URLSearchParams();
  if (view.mode === 'search') params.set('mode', 'search');
  if (view.mode === 'search' && view.from !== undefined) params.set('from', view.from);
  if (view.mode === 'search' && view.to !== undefined) params.set('to', view.to);
  for (const status of view.status) params.append('status', status);
  for (const device of view.device) params.append('device', device);
  if (view.qname !== undefined) params.set('qname', view.qname);
  for (const qtype of view.qtype) params.append('qtype', qtype);
  for (const list of view.list) params.append('list', list);
  if (view.client_ip !== undefined) params.set('client_ip', view.client_ip);
  return params.toString();
}

/** True for the statuses the API knows; others are sent anyway so that the API names the problem. */
function isStatus(value: string): value is QueryStatus {
  return (STATUSES as readonly string[]).includes(value);
}

/** A typed query type: a known name or a number; anything else is sent as NaN, which the API refuses. */
function qtypeNumber(value: string): number {
  return QTYPE_NUMBERS[value.toUpperCase()] ?? (/^\d+$/.test(value) ? Number(value) : Number.NaN);
}

/** The SDK filters of a view (a tail takes every filter but the time range). */
export function filtersOf(view: LogView): Omit<LogQueryOptions, 'mode' | 'cursor' | 'limit'> {
  return {
    ...(view.mode === 'search' && view.from !== undefined ? { from: view.from } : {}),
    ...(view.mode === 'search' && view.to !== undefined ? { to: view.to } : {}),
    ...(view.device.length > 0 ? { device: view.device } : {}),
    ...(view.status.length > 0 ? { status: view.status.filter(isStatus) } : {}),
    ...(view.qname !== undefined ? { qname: view.qname } : {}),
    ...(view.qtype.length > 0 ? { qtype: view.qtype.map(qtypeNumber) } : {}),
    ...(view.list.length > 0 ? { list: view.list.map(Number) } : {}),
    ...(view.client_ip !== undefined ? { client_ip: view.client_ip } : {}),
  };
}
