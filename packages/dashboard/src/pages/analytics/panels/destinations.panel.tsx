import { useQuery } from '@tanstack/react-query';
import { metaQueries } from '../../../api/meta.queries.js';
import { ResponsiveTable } from '../../../components/responsive-table.js';
import { formatNumber } from '../../../i18n/format.js';
import { t } from '../../../i18n/t.js';
import { AnalyticsPanel } from '../analytics-panel.js';
import type { PanelProps } from './panel-props.js';
import { useShape } from './use-shape.js';

const regions = new Intl.DisplayNames(undefined, { type: 'region' });

/** destinations: the addresses allowed queries were answered with, their country and network owner. */
export function DestinationsPanel({ profileId, range }: PanelProps) {
  const destinations = useShape(profileId, 'destinations', range);
  const meta = useQuery(metaQueries.overview());
  const caption = t('analytics.destinations.caption');
  return (
    <AnalyticsPanel title={t('analytics.destinations.title')} query={destinations} wide>
      {(result) =>
        result.records.length === 0 ? (
          <p>{t('analytics.nothing')}</p>
        ) : (
          <>
            <ResponsiveTable
              caption={caption}
              captionHidden
              className="top-table"
              rows={result.records}
              rowKey={(record) => record.ip}
              columns={[
                { header: t('analytics.destinations.address'), cell: (record) => <code>{record.ip}</code> },
                {
                  header: t('analytics.destinations.country'),
                  cell: (record) =>
                    record.country === ''
                      ? t('analytics.destinations.unknown')
                      : `${regions.of(record.country) ?? record.country} (${record.country})`,
                },
                { header: t('analytics.destinations.owner'), cell: (record) => record.owner || '—' },
                {
                  header: t('analytics.queries'),
                  numeric: true,
                  cell: (record) => formatNumber(record.count),
                },
              ]}
            />
            {meta.data !== undefined && meta.data.geoip_attribution !== '' && (
              <p className="attribution">{meta.data.geoip_attribution}</p>
            )}
          </>
        )
      }
    </AnalyticsPanel>
  );
}
