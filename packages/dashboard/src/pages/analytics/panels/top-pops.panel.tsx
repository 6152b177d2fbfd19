import { useQuery } from '@tanstack/react-query';
import { metaQueries } from '../../../api/meta.queries.js';
import { t } from '../../../i18n/t.js';
import { AnalyticsPanel } from '../analytics-panel.js';
import { TopTable } from '../top-table.js';
import type { PanelProps } from './panel-props.js';
import { useShape } from './use-shape.js';

/** top_pops: where the queries were answered, by the PoPs' names. */
export function TopPopsPanel({ profileId, range }: PanelProps) {
  const used = useShape(profileId, 'top_pops', range);
  const pops = useQuery(metaQueries.pops());
  return (
    <AnalyticsPanel title={t('analytics.pops.title')} query={used}>
      {(result) => (
        <TopTable
          caption={t('analytics.pops.caption')}
          itemHeading={t('analytics.pops.item')}
          items={result.records.map((record) => {
            const pop = pops.data?.pops.find((each) => each.id === record.pop);
            return {
              key: record.pop,
              label:
                record.pop === 'node'
                  ? t('analytics.pops.node')
                  : pop === undefined
                    ? record.pop
                    : `${pop.name} (${record.pop})`,
              count: record.count,
            };
          })}
        />
      )}
    </AnalyticsPanel>
  );
}
