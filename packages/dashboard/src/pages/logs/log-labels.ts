import { t } from '../../i18n/t.js';
import type { LogRow } from './log-row.js';

/**
 * The log's coded values in words (issue 36: no internal names on screen). A value a newer server adds that
 * has no words here yet is shown as it came, which is better than nothing.
 */
export function statusLabel(status: string): string {
  switch (status) {
    case 'allowed':
      return t('logs.status.allowed');
    case 'blocked':
      return t('logs.status.blocked');
    case 'rewritten':
      return t('logs.status.rewritten');
    case 'error':
      return t('logs.status.error');
    default:
      return status;
  }
}

/** The protocol a query came over, as people name it. */
export function transportLabel(transport: string): string {
  switch (transport) {
    case 'doh':
      return t('logs.transport.doh');
    case 'doh3':
      return t('logs.transport.doh3');
    case 'dot':
      return t('logs.transport.dot');
    case 'doq':
      return t('logs.transport.doq');
    case 'do53':
      return t('logs.transport.do53');
    default:
      return transport;
  }
}

/** Why a search answer is incomplete (`partial_reason`), in words. */
export function partialLabel(reason: string): string {
  switch (reason) {
    case 'timeout':
      return t('logs.partial.timeout');
    case 'overload':
      return t('logs.partial.overload');
    case 'node_reconnecting':
      return t('logs.partial.node_reconnecting');
    default:
      return t('logs.partial.other');
  }
}

/**
 * What decided a query, in words: a list by its name, a rule as the person wrote it, a rewrite by its rule
 * without the `=` the log adds to mark rewrites, an operator block by its kind (never `operator:abuse`).
 */
export function reasonLabel(row: Pick<LogRow, 'reason' | 'reason_code' | 'reason_rule'>): string {
  if (row.reason_code === 'rewrite') {
    const rule = row.reason_rule.replace(/^=/, '') || row.reason.replace(/^=/, '');
    return rule === '' ? t('logs.reason.rewriteHidden') : t('logs.reason.rewrite', { rule });
  }
  if (row.reason_code.startsWith('operator:')) {
    switch (row.reason_code.slice('operator:'.length)) {
      case 'legal_order':
        return t('logs.reason.legal_order');
      case 'abuse':
        return t('logs.reason.abuse');
      case 'csam':
        return t('logs.reason.csam');
      default:
        return t('logs.reason.operator');
    }
  }
  return row.reason;
}

/**
 * The policy that decided a query (`decided_by`, issue 38) in words, or undefined when none did (the
 * profile's everyday filtering). A value a newer server adds is shown as it came.
 */
export function policyLabel(decidedBy: string): string | undefined {
  if (decidedBy === '') return undefined;
  if (decidedBy === 'paused') return t('logs.policy.paused');
  if (decidedBy === 'allowance') return t('logs.policy.allowance');
  if (decidedBy.startsWith('schedule:')) return t('logs.policy.schedule', { name: decidedBy.slice(9) });
  if (decidedBy.startsWith('device:')) return t('logs.policy.device', { id: decidedBy.slice(7) });
  return decidedBy;
}

/** A row's reason with the policy that decided it, as the log's Reason column shows them. */
export function reasonWithPolicy(
  row: Pick<LogRow, 'reason' | 'reason_code' | 'reason_rule' | 'decided_by'>,
): string {
  const reason = reasonLabel(row);
  const policy = policyLabel(row.decided_by);
  if (policy === undefined) return reason;
  return reason === '' ? policy : t('logs.policy.withReason', { reason, policy });
}
