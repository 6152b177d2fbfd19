import type { NodeProfileDocument } from '@svc/sdk';

/** What a query's name was decided to get (spec 2.4): the same order the cloud edge applies. */
export type FilteringDecision =
  | { status: 'allowed'; rule: '' }
  | { status: 'blocked'; rule: string }
  | { status: 'rewritten'; rule: string; answers: RewriteTarget[] };

/** One answer of a rewrite rule, by the record type it answers. */
export type RewriteTarget = { type: 'A' | 'AAAA' | 'CNAME'; data: string };

/** How blocked names are answered (spec 2.3 `settings.block_mode`). */
export type BlockMode = NodeProfileDocument['settings']['block_mode'];

/**
 * The part of a verified profile document that decides queries: its deny, allow and rewrite rules and its
 * block mode. Blocklists (`lists`), security and parental categories need the catalogues and are not applied
 * by this reference node (see its README).
 */
export class FilteringPolicy {
  private constructor(
    readonly version: number,
    readonly filtering: boolean,
    readonly logging: boolean,
    readonly blockMode: BlockMode,
    readonly logClientIp: boolean,
    readonly logDomains: boolean,
    readonly logDestination: NodeProfileDocument['settings']['log_destination'],
    private readonly rules: NodeProfileDocument['rules'],
  ) {}

  static of(document: NodeProfileDocument): FilteringPolicy {
    return new FilteringPolicy(
      document.version,
      document.filtering,
      document.logging,
      document.settings.block_mode,
      document.settings.log_client_ip,
      document.settings.log_domains,
      document.settings.log_destination,
      document.rules,
    );
  }

  /**
   * Allow wins over everything, then rewrites (every rewrite of the first matching pattern answers), then deny.
   * A profile that does not filter (suspended) allows every name.
   */
  decide(qname: string): FilteringDecision {
    if (!this.filtering) return { status: 'allowed', rule: '' };
    const name = normaliseQueryName(qname);
    if (this.rules.allow.some((pattern) => patternCovers(pattern, name)))
      return { status: 'allowed', rule: '' };
    const first = this.rules.rewrites.find((rule) => patternCovers(rule.pattern, name));
    if (first !== undefined) {
      const answers = this.rules.rewrites
        .filter((rule) => rule.pattern === first.pattern)
        .map((rule) => rewriteTarget(rule.answer));
      return { status: 'rewritten', rule: first.pattern, answers };
    }
    const denied = this.rules.deny.find((pattern) => patternCovers(pattern, name));
    return denied === undefined ? { status: 'allowed', rule: '' } : { status: 'blocked', rule: denied };
  }
}

/** A query name as rules and logs compare it: ASCII lower case, without the trailing dot. */
export function normaliseQueryName(qname: string): string {
  const name = qname.endsWith('.') ? qname.slice(0, -1) : qname;
  return name.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/**
 * Whether a stored (normalised) rule pattern covers a normalised name (spec 2.4): `example.com` covers the
 * name and everything under it, `=example.com` only the name, `*.example.com` only what is under it; always on
 * label boundaries.
 */
export function patternCovers(pattern: string, name: string): boolean {
  if (pattern.startsWith('=')) return name === pattern.slice(1);
  const subdomainsOnly = pattern.startsWith('*.');
  const base = subdomainsOnly ? pattern.slice(2) : pattern;
  const under = name.length > base.length + 1 && name.endsWith(`.${base}`);
  return subdomainsOnly ? under : under || name === base;
}

/** A normalised rewrite answer: IPv6 has a colon, IPv4 only digits and dots, anything else is a host name. */
function rewriteTarget(answer: string): RewriteTarget {
  if (answer.includes(':')) return { type: 'AAAA', data: answer };
  if (/^[0-9.]+$/.test(answer)) return { type: 'A', data: answer };
  return { type: 'CNAME', data: answer };
}
