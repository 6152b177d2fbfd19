import { useMemo, useState } from 'react';
import { TableScroll } from '../../../components/table-scroll.js';
import { formatDateTime, formatNumber } from '../../../i18n/format.js';
import { t } from '../../../i18n/t.js';
import { AnalyticsPanel } from '../analytics-panel.js';
import { TimelineChart } from '../timeline-chart.js';
import { TIMELINE_SERIES, type TimelineData, timelineData } from '../timeline-data.js';
import type { PanelProps } from './panel-props.js';
import { useShape } from './use-shape.js';

/** The numbers behind the chart, as a table, built only when opened. */
function TimelineNumbers({ data }: { data: TimelineData }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{t('analytics.timeline.numbers')}</summary>
      {open && (
        <TableScroll label={t('analytics.timeline.numbers')}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t('analytics.timeline.from')}</th>
                {TIMELINE_SERIES.map((status) => (
                  <th scope="col" className="numeric" key={status.key}>
                    {status.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.x.map((start, at) =>
                TIMELINE_SERIES.every((_status, index) => (data.series[index]?.[at] ?? 0) === 0) ? null : (
                  <tr key={start}>
                    <td>{formatDateTime(new Date(start * 1000))}</td>
                    {TIMELINE_SERIES.map((status, index) => (
                      <td className="numeric" key={status.key}>
                        {formatNumber(data.series[index]?.[at] ?? 0)}
                      </td>
                    ))}
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </TableScroll>
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
