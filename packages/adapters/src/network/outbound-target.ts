import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { IpaddrRangeClassifier } from './ipaddr.ip-range-classifier.js';

/**
 * An outbound request was refused before it connected: its target is not a public HTTPS address. Kept apart
 * from network failures, as retrying cannot help and the reason is worth showing as is.
 */
export class ForbiddenTargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ForbiddenTargetError';
  }
}

const ipv4Ranges = new IpaddrRangeClassifier();

/**
 * The special-purpose range an address belongs to when it is not a public unicast address (loopback,
 * private, link-local such as 169.254.169.254 where clouds serve instance credentials, carrier-grade NAT,
 * reserved, documentation; IPv6 loopback ::1, unique-local fc00::/7, link-local fe80::/10, NAT64, 6to4,
 * Teredo, multicast), else null. IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is judged as the IPv4 it carries.
 */
export function nonPublicRangeOf(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '').split('%')[0] ?? '';
  if (!ipaddr.isValid(bare)) return 'invalid';
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv6') {
    const ipv6 = parsed as ipaddr.IPv6;
    if (ipv6.isIPv4MappedAddress()) return nonPublicRangeOf(ipv6.toIPv4Address().toString());
    const range = ipv6.range();
    return range === 'unicast' ? null : range;
  }
  const range = ipv4Ranges.rangeOf(parsed.toString());
  return range === 'unicast' ? null : range;
}

/** Why `url` may not be requested (https only, a public address literal), or null when it may. */
export function refusedTarget(url: URL): string | null {
  if (url.protocol !== 'https:') return `${url.protocol}// is refused (https only)`;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) {
    const range = nonPublicRangeOf(host);
    if (range !== null) return `${host} is a ${range} address`;
  }
  return null;
}

type Resolve = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for sockets that resolves every address of a name and refuses the connection when any is not
 * public. The socket connects to the addresses checked here, so a name that resolves to a public address
 * when checked and to 127.0.0.1 when connecting (DNS rebinding) cannot slip through.
 */
export function publicOnlyLookup(resolve: Resolve = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) return callback(error, '', 0);
      const first = addresses[0];
      if (first === undefined)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      for (const { address } of addresses) {
        const range = nonPublicRangeOf(address);
        if (range !== null)
          return callback(
            new ForbiddenTargetError(`${hostname} resolves to ${address}, a ${range} address`),
            '',
            0,
          );
      }
      if (options.all === true) return callback(null, addresses);
      return callback(null, first.address, first.family);
    });
  };
}

/** The refusal an error carries (itself or a cause), if any. */
export function forbiddenTargetIn(error: unknown): ForbiddenTargetError | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth += 1) {
    if (current instanceof ForbiddenTargetError) return current;
    current = current.cause;
  }
  return undefined;
}
