import type { ReasonCount } from '@svc/sdk';
import { t } from '../../../i18n/t.js';
import { AnalyticsPanel } from '../analytics-panel.js';
import { TopTable } from '../top-table.js';
import type { PanelProps } from './panel-props.js';
import { useShape } from './use-shape.js';

/** What kind of decision a reason is, in words (never `operator:legal_order`). */
function kindOf(code: string): string {
  switch (code) {
    case 'list':
      return t('analytics.reasons.list');
    case 'rule':
      return t('analytics.reasons.rule');
    case 'rewrite':
      return t('analytics.reasons.rewrite');
    case 'none':
      return t('analytics.reasons.none');
    case 'operator:legal_order':
      return t('analytics.reasons.legal_order');
    case 'operator:abuse':
      return t('analytics.reasons.abuse');
    case 'operator:csam':
      return t('analytics.reasons.csam');
    default:
      return code.startsWith('operator:') ? t('analytics.reasons.operator') : code;
  }
}

/** The reason as the person wrote it: a rewrite's pattern without the `=` the log adds to mark rewrites. */
function reasonText(record: ReasonCount): string {
  return record.reason_code === 'rewrite' ? record.reason.replace(/^=/, '') : record.reason;
}

/** top_reasons: the lists, rules and rewrites that decided queries, each a link to what it decided. */
export function TopReasonsPanel({ profileId, range, logs }: PanelProps) {
  const reasons = useShape(profileId, 'top_reasons', range);
  return (
    <AnalyticsPanel title={t('analytics.reasons.title')} query={reasons}>
      {(result) => (
        <TopTable
          caption={t('analytics.reasons.caption')}
          itemHeading={t('analytics.reasons.item')}
          items={result.records.map((record) => {
            const kind = kindOf(record.reason_code);
            return {
              key: `${record.reason_code}:${record.list_id ?? ''}:${record.reason}`,
              label: reasonText(record) || kind,
              detail: `(${kind})`,
              count: record.count,
              href:
                record.reason_code === 'list' && record.list_id !== null
                  ? logs({ list: String(record.list_id), status: 'blocked' })
                  : record.reason_code === 'rewrite'
                    ? logs({ status: 'rewritten' })
                    : record.reason_code === 'none'
                      ? undefined
                      : logs({ status: 'blocked' }),
            };
          })}
        />
      )}
    </AnalyticsPanel>
  );
}
