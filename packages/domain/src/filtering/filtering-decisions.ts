import type { BlockMode, QueryDecision, RewriteTarget } from './query-decision.js';

/** A shared, frozen decision with every field not given at its "nothing" value. */
export function decision(
  fields: Partial<QueryDecision> & Pick<QueryDecision, 'action' | 'reason' | 'status'>,
): QueryDecision {
  return Object.freeze({
    listId: null,
    rule: '',
    operatorCode: '',
    ede: 0,
    edeText: '',
    blockMode: null,
    rewrites: [],
    decidedBy: '',
    ...fields,
  });
}

/** The decision for a query nothing decided. */
export const FORWARD: QueryDecision = decision({ action: 'forward', reason: 'none', status: 'allowed' });

/** The decision for a query the profile's own blocking would have decided, while its owner paused it. */
export const PAUSED: QueryDecision = decision({
  action: 'forward',
  reason: 'paused',
  status: 'allowed',
  decidedBy: 'paused',
});

/** A query a list would have blocked but for a timed allowance of its service, and nothing else decided. */
export const SERVICE_ALLOWED: QueryDecision = decision({
  action: 'forward',
  reason: 'allowance',
  status: 'allowed',
  decidedBy: 'allowance',
});

export const SOURCE_DECISION = decision({
  action: 'block',
  reason: 'source_block',
  status: 'blocked',
  operatorCode: 'abuse',
  ede: 15,
  edeText: 'abusive source',
  blockMode: 'refused',
});

/** A domain allowance's decision: allowed like an allow rule, logged as the allowance. */
export function allowanceDecision(pattern: string): QueryDecision {
  return decision({
    action: 'allow',
    reason: 'allowance',
    status: 'allowed',
    rule: pattern,
    decidedBy: 'allowance',
  });
}

/** A bedtime's block: everything the allow rules and allowances do not let through. */
export function bedtimeDecision(schedule: string, blockMode: BlockMode): QueryDecision {
  const name = `schedule:${schedule}`;
  return decision({
    action: 'block',
    reason: 'schedule',
    status: 'blocked',
    rule: name,
    ede: 17,
    edeText: name,
    blockMode,
    decidedBy: name,
  });
}

export function allowRuleDecision(pattern: string, decidedBy: string): QueryDecision {
  return decision({ action: 'allow', reason: 'allow_rule', status: 'allowed', rule: pattern, decidedBy });
}

export function denyRuleDecision(pattern: string, blockMode: BlockMode, decidedBy: string): QueryDecision {
  return decision({
    action: 'block',
    reason: 'deny_rule',
    status: 'blocked',
    rule: pattern,
    ede: 17,
    edeText: pattern,
    blockMode,
    decidedBy,
  });
}

export function listDecision(
  list: { listId: number; kind: 'list' | 'parental' | 'security'; name: string },
  blockMode: BlockMode,
  decidedBy: string,
): QueryDecision {
  return decision({
    action: 'block',
    reason: list.kind,
    status: 'blocked',
    listId: list.listId,
    ede: 17,
    edeText: list.name,
    blockMode,
    decidedBy,
  });
}

export function rewriteTarget(answer: string): RewriteTarget {
  if (answer.includes(':')) return { type: 'AAAA', data: answer };
  if (/^[0-9.]+$/.test(answer)) return { type: 'A', data: answer };
  return { type: 'CNAME', data: answer };
}
