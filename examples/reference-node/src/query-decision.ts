import type { NodeProfileDocument } from '@svc/sdk';
import type { RecordedQuery } from './query-log-store.js';

/**
 * The seam between deciding a query and answering it. The DNS side of this node (transports, message
 * building, truncation, EDNS, the upstream) only ever sees a {@link QueryDecision}; whatever decides (this
 * node's {@link FilteringPolicy} today, the shared decision function of the domain with compiled lists and
 * operator files tomorrow) plugs in by implementing {@link QueryDecider}.
 */

/** How blocked names are answered (spec 2.3 `settings.block_mode`). */
export type BlockMode = NodeProfileDocument['settings']['block_mode'];

/** One answer of a rewrite rule, by the record type it answers. */
export type RewriteTarget = { type: 'A' | 'AAAA' | 'CNAME'; data: string };

/** Extended DNS Error info codes this node sends (RFC 8914 section 4). */
export const EDE = {
  /** 15 Blocked: an operator block (spec 3, 4.10), whatever the profile says. */
  blocked: 15,
  /** 17 Filtered: the profile's own filtering (rules, lists, parental, security). */
  filtered: 17,
  /** 18 Prohibited: the client's address is refused (an operator source block). */
  prohibited: 18,
  /** 23 Network Error: the upstream failed or did not answer. */
  networkError: 23,
} as const;

/** An Extended DNS Error (RFC 8914): the info code and its extra text. */
export interface ExtendedError {
  code: number;
  text: string;
}

/** What made a decision, in the query log's words (spec 2.11 `reason_*` and `operator_code`). */
export interface DecisionReason {
  /** The rule pattern, or the operator block's pattern; empty for a list. */
  rule: string;
  listId: number | null;
  listName: string;
  /** The operator block's reason code (spec 2.8); empty unless the operator blocked the name. */
  operatorCode: RecordedQuery['operator_code'];
}

/**
 * What a query gets:
 * - `forward`: the upstream's answer;
 * - `block`: the answer of `blockMode` with `ede` in its OPT record (an operator block is `nxdomain` with
 *   EDE 15 whatever the profile's mode; the profile's own blocks carry EDE 17);
 * - `rewrite`: the rewrite's records; a host name answers a CNAME and the target's own answer.
 */
export type QueryDecision =
  | { action: 'forward' }
  | { action: 'block'; blockMode: BlockMode; ede: ExtendedError; reason: DecisionReason }
  | { action: 'rewrite'; answers: readonly RewriteTarget[]; reason: DecisionReason };

/** What a decision is taken from: the query and who asked. */
export interface DecidedQuery {
  /** The query name normalised: ASCII lower case, without the trailing dot. */
  qname: string;
  /** The numeric query type (1 A, 28 AAAA…). */
  qtype: number;
  /** The client's address as the transport saw it. */
  clientIp: string;
}

/** Decides queries for one profile document (and whatever else the node enforces). */
export interface QueryDecider {
  decide(query: DecidedQuery): QueryDecision;
}

/** The logging settings of the profile in force (spec 2.3). */
export interface QueryLogging {
  /** The profile logs at all (`logs_enabled`, and the profile is not suspended from logging). */
  readonly logging: boolean;
  readonly logClientIp: boolean;
  readonly logDomains: boolean;
}

/** Everything the resolver asks of the profile in force: a decider and its logging settings. */
export interface ProfileInForce extends QueryDecider, QueryLogging {}

/** A reason that names only a rule. */
export function ruleReason(rule: string): DecisionReason {
  return { rule, listId: null, listName: '', operatorCode: '' };
}
