import type { ProfileEndpoints } from './profile.schemas.js';
import type { ResolverSettings } from './resolver.settings.js';

/**
 * The IPv6 resolver address of a profile in one anycast /48: the six ASCII bytes of the id in the low 48 bits
 * (`abc123` → `…::6162:6331:3233`), so the edge reads the profile straight from the destination address.
 */
export function profileIpv6(prefix48: string, id: string): string {
  const groups = prefix48
    .replace(/::.*$/, '')
    .split(':')
    .filter((group) => group.length > 0);
  const bytes = [...id].map((char) => char.charCodeAt(0).toString(16).padStart(2, '0'));
  const low = [0, 2, 4].map((offset) => `${bytes[offset]}${bytes[offset + 1]}`.replace(/^0+(?=.)/, ''));
  return `${groups.slice(0, 3).join(':')}::${low.join(':')}`;
}

/** How to reach profile `id` (spec 2.3 endpoints). */
export function profileEndpoints(id: string, resolver: ResolverSettings): ProfileEndpoints {
  return {
    doh: `https://${resolver.domain}/${id}`,
    dot: `${id}.${resolver.domain}`,
    dot_device: `<device>-${id}.${resolver.domain}`,
    doq: `quic://${id}.${resolver.domain}`,
    ipv6: resolver.ipv6Prefixes.map((prefix) => profileIpv6(prefix, id)),
    ipv4: [...resolver.ipv4Anycast],
  };
}
