import { FilteringContext, type FilteringInputs, FORWARD, PAUSED } from './filtering-context.js';
import { SuffixKeys } from './name-key.js';
import { anySuffixIn } from './pattern-index.js';
import type { QueryDecision } from './query-decision.js';

/** One query to decide. */
export interface QueryToDecide {
  /** The query name as asked (any case, with or without the trailing dot, A-labels). */
  name: string;
  /** The client's address, for source blocks; empty when unknown. */
  clientIp?: string;
  /**
   * When the query arrived (Unix ms), for the expiry of operator entries and of the owner's pause; without it
   * nothing expires (a pause in the document then holds).
   */
  at?: number;
  /**
   * The device id the query named (the `<device>-<id>` DoT/DoQ host, the DoH path), for its overrides
   * (issue 38); absent or unknown to the document: the profile's policy applies.
   */
  device?: string;
}

/** Prepares the decisions of a profile with its lists and the operator files ({@link FilteringContext}). */
export function prepareFiltering(inputs: FilteringInputs): FilteringContext {
  return new FilteringContext(inputs, new SuffixKeys());
}

/**
 * The edge's decision for one query (spec 2.4, 2.8, 2.9, 3), the same for the cloud edge, `svc simulate`,
 * the reference node and any node built on the kit. In order, the first that applies decides:
 *
 * 1. an operator block in scope covering the name: NXDOMAIN with EDE 15, whatever the profile (even a
 *    suspended one, even an allow rule);
 * 2. a source block in scope covering the client's address: REFUSED with EDE 15;
 * 3. a suspended profile (`filtering: false`) forwards everything else;
 * 4. a paused profile (the query's time before `paused_until`, end exclusive) still answers its rewrites (a
 *    pause is "filtering off", not "profile off") and forwards everything else with reason `paused`, without
 *    looking at its rules and lists;
 * 5. an allow rule covering the name: forwarded, nothing below applies;
 * 6. a deny rule, then the compiled lists (enabled lists, parental services and categories, security feeds,
 *    each kind by list id): blocked with the profile's block mode and EDE 17;
 * 7. a rewrite: answered with every answer of the first rewrite pattern covering the name;
 * 8. otherwise forwarded.
 *
 * Where several patterns of one kind cover a name, the first in stored order decides. Pure and allocation
 * free: the decisions are the context's.
 */
export function decideQuery(context: FilteringContext, query: QueryToDecide): QueryDecision {
  const keys = context.keys;
  keys.of(query.name);
  context.at = query.at ?? Number.NEGATIVE_INFINITY;
  // Whether any pattern is about this name or an ancestor: without one, no operator block, allow, deny or
  // rewrite can cover it.
  const patterned = context.patternNames.size > 0 && anySuffixIn(context.patternNames, keys);
  if (patterned && !context.operator.empty) {
    const block = context.operator.first(keys, context.acceptOperator);
    if (block >= 0) return context.operatorDecisions[block] as QueryDecision;
  }
  if (!context.sources.empty && query.clientIp !== undefined) {
    if (context.sources.first(query.clientIp, context.acceptSource) >= 0) return context.sourceDecision;
  }
  if (!context.filtering) return FORWARD;
  if (context.at < context.pausedUntil) return pausedDecision(context, patterned);
  if (patterned && !context.allow.empty) {
    const allowed = context.allow.first(keys);
    if (allowed >= 0) return context.allowDecisions[allowed] as QueryDecision;
  }
  if (patterned && !context.deny.empty) {
    const denied = context.deny.first(keys);
    if (denied >= 0) return context.denyDecisions[denied] as QueryDecision;
  }
  const lists = context.lists;
  for (let index = 0; index < lists.length; index += 1) {
    if ((lists[index] as (typeof lists)[number]).set.blocks(keys))
      return context.listDecisions[index] as QueryDecision;
  }
  return rewriteOr(context, patterned, FORWARD);
}

/** The first rewrite covering the name of `context.keys`, else `otherwise`. */
function rewriteOr(context: FilteringContext, patterned: boolean, otherwise: QueryDecision): QueryDecision {
  if (patterned && !context.rewrite.empty) {
    const rewritten = context.rewrite.first(context.keys);
    if (rewritten >= 0) return context.rewriteDecisions[rewritten] as QueryDecision;
  }
  return otherwise;
}

/** While paused: the profile's rewrites still answer, everything else is forwarded as paused. */
function pausedDecision(context: FilteringContext, patterned: boolean): QueryDecision {
  return rewriteOr(context, patterned, PAUSED);
}
