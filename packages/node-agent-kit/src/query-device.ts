/**
 * Which device a query names (spec 2.3 endpoints, issue 38): the `<device>-<profile id>` first label of the
 * DoT/DoQ host, or the segment after `/dns-query/` of the DoH path. A device name that is one word of
 * `a-z 0-9 . _ -` starting with a letter or digit is its own device id (spec 2.5, `deviceIdOf`); any other
 * name's id is a digest the node cannot be sure of, so such a query is decided by the profile's policy.
 */
const SELF_NAMED = /^[a-z0-9][a-z0-9._-]{0,63}$/;
/** A profile id: six characters of [a-z0-9] (spec 2.3). */
const DEVICE_LABEL = /^(.+)-[a-z0-9]{6}$/;

/** The device id of a DoT/DoQ server name (`tablet-abc123.dot.example` → `tablet`), or undefined. */
export function deviceOfServerName(serverName: string | undefined | null): string | undefined {
  if (typeof serverName !== 'string') return undefined;
  const label = serverName.toLowerCase().split('.')[0] ?? '';
  const device = DEVICE_LABEL.exec(label)?.[1];
  return device !== undefined && SELF_NAMED.test(device) ? device : undefined;
}

/** The device id of a DoH path (`/dns-query/tablet` → `tablet`), or undefined for `/dns-query` itself. */
export function deviceOfDohPath(pathname: string, base = '/dns-query'): string | undefined {
  if (!pathname.startsWith(`${base}/`)) return undefined;
  let segment: string;
  try {
    segment = decodeURIComponent(pathname.slice(base.length + 1)).toLowerCase();
  } catch {
    return undefined;
  }
  return SELF_NAMED.test(segment) ? segment : undefined;
}
