import { t } from '../../../i18n/t.js';
import { AnalyticsPanel } from '../analytics-panel.js';
import { TopTable } from '../top-table.js';
import type { PanelProps } from './panel-props.js';
import { useShape } from './use-shape.js';

/** top_domains, or top_blocked with `blocked`: the names, each a link to its queries. */
export function TopDomainsPanel({
  profileId,
  range,
  logs,
  blocked = false,
}: PanelProps & { blocked?: boolean }) {
  const domains = useShape(profileId, blocked ? 'top_blocked' : 'top_domains', range);
  return (
    <AnalyticsPanel
      title={t(blocked ? 'analytics.blocked.title' : 'analytics.domains.title')}
      query={domains}
    >
      {(result) => (
        <TopTable
          caption={t(blocked ? 'analytics.blocked.caption' : 'analytics.domains.caption')}
          itemHeading={t('analytics.domain')}
          items={result.records.map((record) => ({
            key: record.qname,
            label: record.qname,
            count: record.count,
            href: logs(blocked ? { qname: record.qname, status: 'blocked' } : { qname: record.qname }),
          }))}
        />
      )}
    </AnalyticsPanel>
  );
}
