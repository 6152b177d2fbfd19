import type { ProfileEndpoints } from './profile.schemas.js';
import type { ResolverSettings } from './resolver.settings.js';

/** The first three groups of an anycast /48 prefix (`2001:db8:53::/48` → `2001:db8:53`). */
function prefixGroups(prefix48: string): string {
  return prefix48
    .replace(/::.*$/, '')
    .split(':')
    .filter((group) => group.length > 0)
    .slice(0, 3)
    .join(':');
}

/** The six ASCII bytes of a profile id as three IPv6 groups, without leading zeros (`abc123` → `6162:6331:3233`). */
function idGroups(id: string): string {
  const group = (offset: number) => ((id.charCodeAt(offset) << 8) | id.charCodeAt(offset + 1)).toString(16);
  return `${group(0)}:${group(2)}:${group(4)}`;
}

/**
 * The IPv6 resolver address of a profile in one anycast /48: the six ASCII bytes of the id in the low 48 bits
 * (`abc123` → `…::6162:6331:3233`), so the edge reads the profile straight from the destination address.
 */
export function profileIpv6(prefix48: string, id: string): string {
  return `${prefixGroups(prefix48)}::${idGroups(id)}`;
}

/**
 * How to reach a profile (spec 2.3 endpoints), with what depends on the settings alone worked out once: every
 * profile answer carries its endpoints, a list of twenty carries twenty.
 */
export function profileEndpointsOf(resolver: ResolverSettings): (id: string) => ProfileEndpoints {
  const prefixes = resolver.ipv6Prefixes.map(prefixGroups);
  const ipv4 = [...resolver.ipv4Anycast];
  return (id) => ({
    doh: `https://${resolver.domain}/${id}`,
    dot: `${id}.${resolver.domain}`,
    dot_device: `<device>-${id}.${resolver.domain}`,
    doq: `quic://${id}.${resolver.domain}`,
    ipv6: prefixes.map((prefix) => `${prefix}::${idGroups(id)}`),
    ipv4: [...ipv4],
  });
}

/** How to reach profile `id` (spec 2.3 endpoints). */
export function profileEndpoints(id: string, resolver: ResolverSettings): ProfileEndpoints {
  return profileEndpointsOf(resolver)(id);
}
