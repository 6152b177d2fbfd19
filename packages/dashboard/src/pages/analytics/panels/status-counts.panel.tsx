import { Link } from 'wouter';
import { formatNumber, formatPercent } from '../../../i18n/format.js';
import { t } from '../../../i18n/t.js';
import { AnalyticsPanel } from '../analytics-panel.js';
import { TIMELINE_SERIES } from '../timeline-data.js';
import type { PanelProps } from './panel-props.js';
import { useShape } from './use-shape.js';

/** counts_by_status: all queries, and each status with its share, each a link to its queries. */
export function StatusCountsPanel({ profileId, range, logs }: PanelProps) {
  const counts = useShape(profileId, 'counts_by_status', range);
  return (
    <AnalyticsPanel title={t('analytics.status.title')} query={counts} wide>
      {(result) => {
        const byStatus = new Map(result.records.map((record) => [record.status, record.count]));
        const total = result.records.reduce((sum, record) => sum + record.count, 0);
        return (
          <dl className="status-counts">
            <div>
              <dt>{t('analytics.status.all')}</dt>
              <dd>{formatNumber(total)}</dd>
            </div>
            {TIMELINE_SERIES.map((status) => {
              const value = byStatus.get(status.key) ?? 0;
              return (
                <div key={status.key}>
                  <dt>
                    <Link href={logs({ status: status.key })}>{status.label}</Link>
                  </dt>
                  <dd>
                    {formatNumber(value)}
                    {total > 0 && <span className="hint"> ({formatPercent(value / total)})</span>}
                  </dd>
                </div>
              );
            })}
          </dl>
        );
      }}
    </AnalyticsPanel>
  );
}
