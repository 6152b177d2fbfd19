import { useMemo, useState } from 'react';
import { ResponsiveTable } from '../../../components/responsive-table.js';
import { formatDateTime, formatNumber } from '../../../i18n/format.js';
import { t } from '../../../i18n/t.js';
import { AnalyticsPanel } from '../analytics-panel.js';
import { TimelineChart } from '../timeline-chart.js';
import { TIMELINE_SERIES, type TimelineData, timelineData } from '../timeline-data.js';
import type { PanelProps } from './panel-props.js';
import { useShape } from './use-shape.js';

/** The numbers behind the chart, as a table (cards on a phone) of the buckets that saw queries, built only when opened. */
function TimelineNumbers({ data }: { data: TimelineData }) {
  const [open, setOpen] = useState(false);
  const buckets = data.x
    .map((start, at) => ({ start, at }))
    .filter(({ at }) => TIMELINE_SERIES.some((_status, index) => (data.series[index]?.[at] ?? 0) !== 0));
  return (
    <details onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{t('analytics.timeline.numbers')}</summary>
      {open && (
        <ResponsiveTable
          caption={t('analytics.timeline.numbers')}
          captionHidden
          rows={buckets}
          rowKey={(bucket) => String(bucket.start)}
          columns={[
            {
              header: t('analytics.timeline.from'),
              cell: (bucket) => formatDateTime(new Date(bucket.start * 1000)),
            },
            ...TIMELINE_SERIES.map((status, index) => ({
              header: status.label,
              numeric: true,
              cell: (bucket: { at: number }) => formatNumber(data.series[index]?.[bucket.at] ?? 0),
            })),
          ]}
        />
      )}
    </details>
  );
}

/** timeline: queries per bucket and status, stacked, with the numbers behind the chart. */
export function TimelinePanel({ profileId, range }: PanelProps) {
  const timeline = useShape(profileId, 'timeline', range);
  const chart = useMemo(
    () =>
      timeline.data === undefined
        ? undefined
        : timelineData(timeline.data.records, range.from, range.to, range.bucket),
    [timeline.data, range],
  );
  return (
    <AnalyticsPanel title={t('analytics.timeline.title')} query={timeline} wide>
      {() =>
        chart === undefined ? null : (
          <>
            <TimelineChart data={chart} label={t('analytics.timeline.chart', { range: range.label })} />
            <TimelineNumbers data={chart} />
          </>
        )
      }
    </AnalyticsPanel>
  );
}
