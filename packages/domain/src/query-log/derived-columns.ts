import type { QueryLogRow } from './query-log-row.js';

/** What decided a query (spec 2.11, 4.6 rule 4). */
export type ReasonCode = 'list' | 'rule' | 'rewrite' | 'none' | `operator:${string}`;

/** The four derived columns of a log row (spec 2.11). */
export interface DerivedColumns {
  reason: string;
  reasonCode: ReasonCode;
  /** Extended DNS Error the client received: 15 operator block, 17 any other block, else 0. */
  edeCode: number;
  /** EDE extra text: the reason of a block; empty otherwise. */
  edeText: string;
}

/** EDE 15 (Blocked) for operator blocks and 17 (Filtered) for every other block (RFC 8914). */
const EDE_BLOCKED = 15;
const EDE_FILTERED = 17;

/** The stored fields the derived columns are computed from. */
export type DecisionFields = Pick<
  QueryLogRow,
  'status' | 'reasonListId' | 'reasonListName' | 'reasonRule' | 'operatorCode'
>;

/**
 * The reason of a rewrite: the stored rule pattern with the `=` prefix that marks rewrites (spec 2.4). An
 * exact-form pattern (`=a.example`) already begins with it and is shown as it is: a doubled `==a.example`
 * reads as a typo. A rule blanked by domain logging stays empty.
 */
function rewriteReason(pattern: string): string {
  if (pattern === '') return '';
  return pattern.startsWith('=') ? pattern : `=${pattern}`;
}

/**
 * The derived columns of one query, computed the same way for cloud rows, node rows and grouped reasons
 * whatever wrote them.
 */
export function deriveColumns(row: DecisionFields): DerivedColumns {
  if (row.status === 'rewritten') {
    const reason = rewriteReason(row.reasonRule);
    return { reason, reasonCode: 'rewrite', edeCode: 0, edeText: '' };
  }
  if (row.status !== 'blocked') return { reason: '', reasonCode: 'none', edeCode: 0, edeText: '' };
  if (row.operatorCode !== '') {
    return {
      reason: row.reasonRule,
      reasonCode: `operator:${row.operatorCode}`,
      edeCode: EDE_BLOCKED,
      edeText: row.reasonRule,
    };
  }
  if (row.reasonListId !== null) {
    return {
      reason: row.reasonListName,
      reasonCode: 'list',
      edeCode: EDE_FILTERED,
      edeText: row.reasonListName,
    };
  }
  return { reason: row.reasonRule, reasonCode: 'rule', edeCode: EDE_FILTERED, edeText: row.reasonRule };
}
