import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { ResponsiveTable } from '../../../components/responsive-table.js';
import { formatDateTime, formatNumber } from '../../../i18n/format.js';
import { t } from '../../../i18n/t.js';
import { AnalyticsPanel } from '../analytics-panel.js';
import { TIMELINE_SERIES, type TimelineData, timelineData } from '../timeline-data.js';
import type { PanelProps } from './panel-props.js';
import { useShape } from './use-shape.js';

/**
 * The chart's module (uPlot and its styles), fetched as the page opens but evaluated apart from the page's
 * first render: the panels show at once and the chart joins them, so no long task holds the first paint.
 */
const loadChart = () => import('../timeline-chart.js');
const TimelineChart = lazy(async () => ({ default: (await loadChart()).TimelineChart }));

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
  // Fetched while the shape's query is out, so that the chart does not wait for its module after the data.
  useEffect(() => void loadChart(), []);
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
            <Suspense fallback={<div className="timeline-chart" aria-busy="true" />}>
              <TimelineChart data={chart} label={t('analytics.timeline.chart', { range: range.label })} />
            </Suspense>
            <TimelineNumbers data={chart} />
          </>
        )
      }
    </AnalyticsPanel>
  );
}
