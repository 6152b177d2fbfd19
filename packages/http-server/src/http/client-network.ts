import ipaddr from 'ipaddr.js';

/** How much of the IPv6 space one client holds: an end site gets a /64 at least (RFC 6177). */
const IPV6_CLIENT_PREFIX = 64;

/**
 * The key per-client limits count a caller by: an IPv4 address as it is, an IPv6 address by its /64
 * (`2001:db8:1:2::/64`), since a host on a /64 can take a fresh address for every request.
 */
export function clientNetworkOf(clientIp: string): string {
  if (!ipaddr.IPv6.isValid(clientIp)) return clientIp;
  const address = ipaddr.IPv6.parse(clientIp);
  if (address.isIPv4MappedAddress()) return address.toIPv4Address().toString();
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${clientIp}/${IPV6_CLIENT_PREFIX}`);
  return `${network.toString()}/${IPV6_CLIENT_PREFIX}`;
}
