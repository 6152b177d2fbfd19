import type { OperatorCode } from '../query-log/query-log-row.js';

/** How a profile answers blocked names (spec 2.3 settings.block_mode). */
export type BlockMode = 'nxdomain' | 'refused' | 'null' | 'block-page';

/**
 * What the edge does with a query: `block` it (answer as {@link QueryDecision.blockMode} says), `allow` it
 * because an allow rule covers it (resolve it upstream, whatever else would block it), `rewrite` it (answer
 * {@link QueryDecision.rewrites}), or `forward` it because nothing decided it (resolve it upstream).
 */
export type DecisionAction = 'block' | 'allow' | 'rewrite' | 'forward';

/**
 * What decided a query, in the order the edge checks (see decide-query.ts). `paused`: the owner's timed pause
 * turned the profile's own blocking off; the query log records it as an allowed query (reason_code `none`,
 * docs/adr/0041-timed-pause-decided-at-the-edge.md).
 */
export type DecisionReason =
  | 'operator_block'
  | 'source_block'
  | 'paused'
  | 'allowance'
  | 'schedule'
  | 'allow_rule'
  | 'deny_rule'
  | 'list'
  | 'parental'
  | 'security'
  | 'rewrite'
  | 'none';

/** One answer of a rewrite, by the record type it answers. */
export interface RewriteTarget {
  type: 'A' | 'AAAA' | 'CNAME';
  data: string;
}

/**
 * The edge's decision for one query: what to do, why, and what the query log records of it (spec 2.11:
 * status, reason_list_id, reason_rule, the operator code, ede_code and ede_text). Decisions are shared and
 * immutable: the same object answers every query decided the same way.
 */
export interface QueryDecision {
  readonly action: DecisionAction;
  readonly reason: DecisionReason;
  /** The query log status: upstream failures (`error`) are known only after forwarding. */
  readonly status: 'allowed' | 'blocked' | 'rewritten';
  /** The list that blocked (lists, parental services and categories, security feeds), else null. */
  readonly listId: number | null;
  /** The pattern that decided (deny, allow, rewrite or operator block), else empty. */
  readonly rule: string;
  /** For operator and source blocks: the operator's reason code, else empty. */
  readonly operatorCode: OperatorCode | '';
  /** Extended DNS Error (RFC 8914) to attach: 15 Blocked for operator blocks, 17 Filtered for other blocks. */
  readonly ede: 0 | 15 | 17;
  /** EDE extra text: the block's reason (list name, rule, or the operator's public reference). */
  readonly edeText: string;
  /**
   * How to answer a block: operator blocks always NXDOMAIN, source blocks REFUSED, everything else the
   * profile's block mode. Null unless blocked.
   */
  readonly blockMode: BlockMode | null;
  /** For `rewrite`: every answer of the first rewrite pattern that covers the name. */
  readonly rewrites: readonly RewriteTarget[];
  /**
   * The policy that decided, beyond what the spec's reason codes say (issue 38): `paused`, `allowance`,
   * `schedule:<name>`, `device:<id>`; empty when the reason says it all. The query log records it.
   */
  readonly decidedBy: string;
}

/**
 * What the query log records of a decision (spec 2.11 reason_list_id, reason_list_name, reason_rule and the
 * operator code), the same wherever it was decided: the list's id and name for a list block; the operator's
 * public text for operator and source blocks (what the client's EDE said, and what `reason` shows); the
 * pattern for deny rules and rewrites; nothing for allowed queries, allow rules included.
 */
export interface LoggedDecision {
  readonly listId: number | null;
  readonly listName: string;
  readonly rule: string;
  readonly operatorCode: OperatorCode | '';
  /** {@link QueryDecision.decidedBy}: the policy that decided, or empty. */
  readonly decidedBy: string;
}

const NOT_LOGGED: LoggedDecision = Object.freeze({
  listId: null,
  listName: '',
  rule: '',
  operatorCode: '',
  decidedBy: '',
});

/** The log fields of a decision ({@link LoggedDecision}). */
export function loggedDecision(decision: QueryDecision): LoggedDecision {
  switch (decision.reason) {
    case 'operator_block':
    case 'source_block':
      return {
        listId: null,
        listName: '',
        rule: decision.edeText,
        operatorCode: decision.operatorCode,
        decidedBy: '',
      };
    case 'list':
    case 'parental':
    case 'security':
      return {
        listId: decision.listId,
        listName: decision.edeText,
        rule: '',
        operatorCode: '',
        decidedBy: decision.decidedBy,
      };
    case 'deny_rule':
    case 'rewrite':
    case 'schedule':
      return {
        listId: null,
        listName: '',
        rule: decision.rule,
        operatorCode: '',
        decidedBy: decision.decidedBy,
      };
    case 'allow_rule':
    case 'paused':
    case 'allowance':
    case 'none':
      return decision.decidedBy === '' ? NOT_LOGGED : { ...NOT_LOGGED, decidedBy: decision.decidedBy };
  }
}
