import { z } from 'zod';
import { type IpPrefix, inPrefix, parseIp, parsePrefix, parsePrefixOrNull } from './ip-prefix.js';
import owners from './owners.json' with { type: 'json' };

/** One classified company: its lowercase key, the name suffixes it serves and its address prefixes. */
const OwnerEntry = z.object({
  owner: z.string().regex(/^[a-z][a-z0-9-]{1,31}$/, 'must be a lowercase company key'),
  domains: z
    .array(
      z
        .string()
        .regex(/^([a-z0-9-]{1,63}\.)+[a-z0-9-]{2,63}$/, 'must be a lowercase domain suffix')
        .max(253),
    )
    .min(1),
  prefixes: z
    .array(
      z
        .string()
        .refine((cidr) => parsePrefixOrNull(cidr) !== null, 'must be an address prefix such as 192.0.2.0/24'),
    )
    .min(1),
});
export type OwnerEntry = z.infer<typeof OwnerEntry>;

/**
 * The curated owner classification (spec 4.6 rules 5 and 6): five large platform companies and three
 * content-delivery operators, kept as data and validated when the module loads (a bad entry stops the start).
 */
export const OWNER_CLASSIFICATION: readonly OwnerEntry[] = Object.freeze(
  z
    .array(OwnerEntry)
    .length(8)
    .parse(owners)
    .map((entry) => Object.freeze(entry)),
);

/** Owner by domain suffix, for lookups of a name and each of its parents. */
const SUFFIXES: ReadonlyMap<string, string> = new Map(
  OWNER_CLASSIFICATION.flatMap((entry) => entry.domains.map((suffix) => [suffix, entry.owner] as const)),
);
const PREFIXES: ReadonlyArray<{ prefix: IpPrefix; owner: string }> = OWNER_CLASSIFICATION.flatMap((entry) =>
  entry.prefixes.map((cidr) => ({ prefix: parsePrefix(cidr), owner: entry.owner })),
);

/** The owner of a queried name by its suffix (the name itself or a parent); empty when unclassified. */
export function ownerOfName(qname: string): string {
  let name = qname.toLowerCase().replace(/\.$/, '');
  for (;;) {
    const owner = SUFFIXES.get(name);
    if (owner !== undefined) return owner;
    const dot = name.indexOf('.');
    if (dot < 0) return '';
    name = name.slice(dot + 1);
  }
}

/** The owner of an answer address by its prefix; empty when unclassified or not an address. */
export function ownerOfAddress(ip: string): string {
  const address = parseIp(ip);
  return address === null ? '' : (PREFIXES.find((entry) => inPrefix(address, entry.prefix))?.owner ?? '');
}

/** A query's owner (spec 4.6 rule 6): its name's, else its first classified answer address's; else empty. */
export function ownerOfQuery(
  qname: string,
  answerIps: readonly string[],
  ownerOf: (ip: string) => string = ownerOfAddress,
): string {
  const byName = ownerOfName(qname);
  if (byName !== '') return byName;
  for (const ip of answerIps) {
    const byAddress = ownerOf(ip);
    if (byAddress !== '') return byAddress;
  }
  return '';
}

/** Addresses an {@link AddressOwners} remembers before it starts again. */
const ADDRESS_MEMO = 100_000;

/**
 * {@link ownerOfAddress} remembering the addresses it classified, within a bound: answers repeat across
 * queries, and classifying one scans every owner's prefixes. One per holder (a query service), so that no
 * state is shared at module level.
 */
export class AddressOwners {
  private readonly known = new Map<string, string>();

  ownerOf(ip: string): string {
    const known = this.known.get(ip);
    if (known !== undefined) return known;
    const owner = ownerOfAddress(ip);
    if (this.known.size >= ADDRESS_MEMO) this.known.clear();
    this.known.set(ip, owner);
    return owner;
  }

  /** {@link ownerOfQuery} with the addresses remembered. */
  ownerOfQuery(qname: string, answerIps: readonly string[]): string {
    return ownerOfQuery(qname, answerIps, (ip) => this.ownerOf(ip));
  }
}
