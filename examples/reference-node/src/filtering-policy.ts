import type { NodeProfileDocument } from '@svc/sdk';
import {
  type BlockMode,
  type DecidedQuery,
  EDE,
  type ProfileInForce,
  type QueryDecision,
  type RewriteTarget,
  ruleReason,
} from './query-decision.js';
import { RulePatternIndex } from './rule-pattern-index.js';

const UPPER_CASE = /[A-Z]/;
const FORWARD: QueryDecision = Object.freeze({ action: 'forward' });

/**
 * The part of a verified profile document that decides queries: its deny, allow and rewrite rules and its
 * block mode, with its logging settings. Blocklists (`lists`), security and parental categories need the
 * compiled catalogues and are not applied by this class (see the README); the domain's decision function
 * replaces it behind {@link ProfileInForce} when they reach nodes.
 */
export class FilteringPolicy implements ProfileInForce {
  private readonly allow: RulePatternIndex;
  private readonly deny: RulePatternIndex;
  private readonly rewritePatterns: RulePatternIndex;
  /** Every rewrite pattern, in the order of its first rule, with all of its answers. */
  private readonly rewrites: { pattern: string; answers: RewriteTarget[] }[];

  private constructor(
    readonly version: number,
    readonly filtering: boolean,
    readonly logging: boolean,
    readonly blockMode: BlockMode,
    readonly logClientIp: boolean,
    readonly logDomains: boolean,
    readonly logDestination: NodeProfileDocument['settings']['log_destination'],
    private readonly rules: NodeProfileDocument['rules'],
  ) {
    this.allow = new RulePatternIndex(rules.allow);
    this.deny = new RulePatternIndex(rules.deny);
    const byPattern = new Map<string, RewriteTarget[]>();
    for (const rule of rules.rewrites) {
      const answers = byPattern.get(rule.pattern) ?? [];
      answers.push(rewriteTarget(rule.answer));
      byPattern.set(rule.pattern, answers);
    }
    this.rewrites = [...byPattern].map(([pattern, answers]) => ({ pattern, answers }));
    this.rewritePatterns = new RulePatternIndex(this.rewrites.map((rewrite) => rewrite.pattern));
  }

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
   * Allow wins over everything, then rewrites (every answer of the first matching pattern), then deny, which
   * blocks with the profile's block mode and EDE 17 (Filtered). A profile that does not filter (suspended)
   * forwards every name.
   */
  decide(query: DecidedQuery): QueryDecision {
    if (!this.filtering) return FORWARD;
    const name = query.qname;
    if (this.allow.firstCovering(name) >= 0) return FORWARD;
    const rewrite = this.rewrites[this.rewritePatterns.firstCovering(name)];
    if (rewrite !== undefined)
      return { action: 'rewrite', answers: rewrite.answers, reason: ruleReason(rewrite.pattern) };
    const denied = this.rules.deny[this.deny.firstCovering(name)];
    if (denied === undefined) return FORWARD;
    return {
      action: 'block',
      blockMode: this.blockMode,
      ede: { code: EDE.filtered, text: denied },
      reason: ruleReason(denied),
    };
  }
}

/** A query name as rules and logs compare it: ASCII lower case, without the trailing dot. */
export function normaliseQueryName(qname: string): string {
  const name = qname.endsWith('.') ? qname.slice(0, -1) : qname;
  return UPPER_CASE.test(name) ? name.replace(/[A-Z]+/g, (letters) => letters.toLowerCase()) : name;
}

/**
 * Whether a stored (normalised) rule pattern covers a normalised name (spec 2.4): `example.com` covers the
 * name and everything under it, `=example.com` only the name, `*.example.com` only what is under it; always on
 * label boundaries.
 */
export function patternCovers(pattern: string, name: string): boolean {
  return new RulePatternIndex([pattern]).firstCovering(name) === 0;
}

/** A normalised rewrite answer: IPv6 has a colon, IPv4 only digits and dots, anything else is a host name. */
function rewriteTarget(answer: string): RewriteTarget {
  if (answer.includes(':')) return { type: 'AAAA', data: answer };
  if (/^[0-9.]+$/.test(answer)) return { type: 'A', data: answer };
  return { type: 'CNAME', data: answer };
}
