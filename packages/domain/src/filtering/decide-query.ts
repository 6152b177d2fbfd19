import { FilteringContext, type FilteringInputs } from './filtering-context.js';
import { FORWARD, PAUSED, SERVICE_ALLOWED } from './filtering-decisions.js';
import { SuffixKeys } from './name-key.js';
import { anySuffixIn } from './pattern-index.js';
import type { PolicyView } from './policy-view.js';
import type { QueryDecision } from './query-decision.js';

/** One query to decide. */
export interface QueryToDecide {
  /** The query name as asked (any case, with or without the trailing dot, A-labels). */
  name: string;
  /** The client's address, for source blocks; empty when unknown. */
  clientIp?: string;
  /**
   * When the query arrived (Unix ms), for the expiry of operator entries, pauses and allowances and for
   * schedules (read in `settings.time_zone`). Without it nothing expires (a pause or allowance in the document
   * then holds) and no schedule is active (no bedtime; `only_during` items do not block, `lifted_during` ones
   * do): a caller that knows no time gets the profile's decisions as if no window were open.
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
 * The edge's decision for one query (spec 2.4, 2.8, 2.9, 3; issue 38, docs/adr/0043), the same for the cloud
 * edge, `svc simulate`, the reference node and any node built on the kit. The query's device picks the policy
 * (the profile's, or the device's view of it: its rules added, its parental lists, bedtime, assignments and
 * pause). In order, the first that applies decides:
 *
 * 1. an operator block in scope covering the name: NXDOMAIN with EDE 15, whatever the profile (even a
 *    suspended or paused one, even an allow rule or allowance);
 * 2. a source block in scope covering the client's address: REFUSED with EDE 15;
 * 3. a suspended profile (`filtering: false`) forwards everything else;
 * 4. a paused profile or device (the query's time before `paused_until`, end exclusive) still answers its
 *    rewrites (a pause is "filtering off", not "profile off") and forwards everything else with reason
 *    `paused`, without looking at its rules, lists or schedules;
 * 5. an allow rule (the profile's, then the device's) covering the name: forwarded, nothing below applies;
 * 6. a domain allowance not yet ended covering the name: forwarded with reason `allowance`, like an allow rule;
 * 7. the bedtime, while its schedule is active: everything else blocked with the block mode, EDE 17, reason
 *    `schedule`, decided by `schedule:<name>` (rewrites included);
 * 8. a deny rule, then the compiled lists (enabled lists, parental services and categories, security feeds,
 *    each kind by list id): blocked with the block mode and EDE 17, each only while its schedule assignment
 *    lets it block (`only_during`: while active; `lifted_during`: while not), and a service's list only once
 *    no allowance of that service holds;
 * 9. a rewrite: answered with every answer of the first rewrite pattern covering the name;
 * 10. otherwise forwarded (reason `allowance` when a service allowance lifted a list that covered the name).
 *
 * Where several patterns of one kind cover a name, the first in stored order decides (the profile's rules
 * before the device's). Pure and allocation free: the decisions are the context's, schedules' states are
 * cached until their next change, and a device's view is built on its first query.
 */
export function decideQuery(context: FilteringContext, query: QueryToDecide): QueryDecision {
  const keys = context.keys;
  keys.of(query.name);
  const at = query.at ?? Number.NEGATIVE_INFINITY;
  context.at = at;
  const view = context.viewFor(query.device);
  // Whether any pattern is about this name or an ancestor: without one, no operator block, allow, allowance,
  // deny or rewrite can cover it.
  const patterned = view.patternNames.size > 0 && anySuffixIn(view.patternNames, keys);
  if (patterned && !context.operator.empty) {
    const block = context.operator.first(keys, context.acceptOperator);
    if (block >= 0) return context.operatorDecisions[block] as QueryDecision;
  }
  if (!context.sources.empty && query.clientIp !== undefined) {
    if (context.sources.first(query.clientIp, context.acceptSource) >= 0) return context.sourceDecision;
  }
  if (!context.filtering) return FORWARD;
  if (at < view.pausedUntil) return rewriteOr(context, patterned, PAUSED);
  if (patterned) {
    const allowed = allowedBy(view, keys);
    if (allowed !== null) return allowed;
  }
  if (view.bedtime >= 0 && context.schedules.isActive(view.bedtime, at))
    return view.bedtimeDecision as QueryDecision;
  if (patterned && !view.deny.empty) {
    const denied = view.deny.first(keys, view.acceptDeny);
    if (denied >= 0) return view.denyDecisions[denied] as QueryDecision;
  }
  return listsOr(context, view, patterned);
}

/** The allow rule, else the domain allowance not yet ended, covering the name; null when none. */
function allowedBy(view: PolicyView, keys: SuffixKeys): QueryDecision | null {
  if (!view.allow.empty) {
    const allowed = view.allow.first(keys);
    if (allowed >= 0) return view.allowDecisions[allowed] as QueryDecision;
  }
  if (!view.allowances.empty) {
    const allowance = view.allowances.first(keys, view.acceptAllowance);
    if (allowance >= 0) return view.allowanceDecisions[allowance] as QueryDecision;
  }
  return null;
}

/** The first list blocking the name now, else the rewrite, else forwarded. */
function listsOr(context: FilteringContext, view: PolicyView, patterned: boolean): QueryDecision {
  const lists = view.lists;
  let lifted = false;
  for (let index = 0; index < lists.length; index += 1) {
    if (!(lists[index] as (typeof lists)[number]).set.blocks(context.keys)) continue;
    if (view.listBlocksNow(index)) return view.listDecisions[index] as QueryDecision;
    // Only an allowance makes the answer `allowance`; a schedule that lifts a list leaves it unremarked.
    if (context.at < (view.listAllowedUntil[index] as number)) lifted = true;
  }
  return rewriteOr(context, patterned, lifted ? SERVICE_ALLOWED : FORWARD);
}

/** The first rewrite covering the name of `context.keys`, else `otherwise`. */
function rewriteOr(context: FilteringContext, patterned: boolean, otherwise: QueryDecision): QueryDecision {
  if (patterned && !context.rewrite.empty) {
    const rewritten = context.rewrite.first(context.keys);
    if (rewritten >= 0) return context.rewriteDecisions[rewritten] as QueryDecision;
  }
  return otherwise;
}
