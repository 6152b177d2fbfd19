import { t } from '../../../i18n/t.js';
import { AnalyticsPanel } from '../analytics-panel.js';
import { TopTable } from '../top-table.js';
import type { PanelProps } from './panel-props.js';
import { useShape } from './use-shape.js';

/** top_owners: the companies behind the queried names. */
export function TopOwnersPanel({ profileId, range }: PanelProps) {
  const owners = useShape(profileId, 'top_owners', range);
  return (
    <AnalyticsPanel title={t('analytics.owners.title')} query={owners}>
      {(result) => (
        <TopTable
          caption={t('analytics.owners.caption')}
          itemHeading={t('analytics.owners.item')}
          items={result.records.map((record) => ({
            key: record.owner,
            label: record.owner.replace(/^./, (first) => first.toUpperCase()),
            count: record.count,
          }))}
        />
      )}
    </AnalyticsPanel>
  );
}
