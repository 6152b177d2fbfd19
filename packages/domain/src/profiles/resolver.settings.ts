/** Where the resolver fleet answers, from the runner's settings (spec 2.3 endpoints). */
export interface ResolverSettings {
  /** Domain under which profiles are reachable: `<id>.<domain>` for DoT/DoQ, `https://<domain>/<id>` for DoH. */
  domain: string;
  /** Anycast IPv6 /48 prefixes, e.g. `2001:db8:100::`; each gives one address encoding the profile id. */
  ipv6Prefixes: readonly string[];
  /** Anycast IPv4 resolvers (Do53 clients are identified by a linked IP). */
  ipv4Anycast: readonly string[];
}
