import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { stacked, TIMELINE_SERIES, type TimelineData } from './timeline-data.js';

/** Name of the user-timing measure of one chart render, read by the dashboard benchmark. */
const TIMELINE_RENDER_MEASURE = 'svc:timeline-render';

const HEIGHT = 260;

/**
 * The timeline as a stacked area chart (uPlot on a canvas): allowed at the bottom, then rewritten, blocked and
 * failed. The legend shows each status's own count under the cursor, not the stacked height.
 */
export function TimelineChart({ data, label }: { data: TimelineData; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const target = box.current;
    if (target === null) return;
    const started = performance.now();
    let measured = false;
    const heights = stacked(data.series);
    const options: uPlot.Options = {
      width: Math.max(320, target.clientWidth),
      height: HEIGHT,
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true } },
      axes: [{}, { size: 60 }],
      series: [
        {},
        ...TIMELINE_SERIES.map((status, index) => ({
          label: status.label,
          stroke: status.colour,
          fill: `${status.colour}99`,
          width: 1,
          points: { show: false },
          value: (_chart: uPlot, _value: number, _series: number, at: number | null) =>
            at === null ? '—' : String(data.series[index]?.[at] ?? 0),
        })),
      ],
      // Each band fills between a status's top and the one below it, so the areas stack without overlapping.
      bands: TIMELINE_SERIES.slice(1).map((_status, index) => ({
        series: [index + 2, index + 1] as [number, number],
      })),
      hooks: {
        draw: [
          () => {
            // The first draw ends the render; later ones are resizes and cursor moves.
            if (measured) return;
            measured = true;
            performance.measure(TIMELINE_RENDER_MEASURE, { start: started, end: performance.now() });
          },
        ],
      },
    };
    const chart = new uPlot(options, [data.x, ...heights], target);
    const resize = new ResizeObserver(() =>
      chart.setSize({ width: Math.max(320, target.clientWidth), height: HEIGHT }),
    );
    resize.observe(target);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [data]);
  return <div className="timeline-chart" ref={box} role="img" aria-label={label} />;
}
