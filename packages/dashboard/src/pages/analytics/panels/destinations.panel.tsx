import { useQuery } from '@tanstack/react-query';
import { metaQueries } from '../../../api/meta.queries.js';
import { TableScroll } from '../../../components/table-scroll.js';
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
            <TableScroll label={caption}>
              <table className="top-table">
                <caption className="visually-hidden">{caption}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('analytics.destinations.address')}</th>
                    <th scope="col">{t('analytics.destinations.country')}</th>
                    <th scope="col">{t('analytics.destinations.owner')}</th>
                    <th scope="col" className="numeric">
                      {t('analytics.queries')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {result.records.map((record) => (
                    <tr key={record.ip}>
                      <td>
                        <code>{record.ip}</code>
                      </td>
                      <td>
                        {record.country === ''
                          ? t('analytics.destinations.unknown')
                          : `${regions.of(record.country) ?? record.country} (${record.country})`}
                      </td>
                      <td>{record.owner || '—'}</td>
                      <td className="numeric">{formatNumber(record.count)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
            {meta.data !== undefined && meta.data.geoip_attribution !== '' && (
              <p className="attribution">{meta.data.geoip_attribution}</p>
            )}
          </>
        )
      }
    </AnalyticsPanel>
  );
}
