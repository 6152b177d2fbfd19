import { t } from '../../../i18n/t.js';
import { AnalyticsPanel } from '../analytics-panel.js';
import { TopTable } from '../top-table.js';
import type { PanelProps } from './panel-props.js';
import { useShape } from './use-shape.js';

/** top_devices: by their display names, each a link to its queries. */
export function TopDevicesPanel({ profileId, range, logs }: PanelProps) {
  const devices = useShape(profileId, 'top_devices', range);
  return (
    <AnalyticsPanel title={t('analytics.devices.title')} query={devices}>
      {(result) => (
        <TopTable
          caption={t('analytics.devices.caption')}
          itemHeading={t('analytics.devices.item')}
          items={result.records.map((record) => ({
            key: record.device_id,
            label: record.device_name || record.device_id || t('analytics.devices.unnamed'),
            count: record.count,
            href: logs({ device: record.device_id }),
          }))}
        />
      )}
    </AnalyticsPanel>
  );
}
