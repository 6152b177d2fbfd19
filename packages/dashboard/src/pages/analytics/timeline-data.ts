import type { TimelineBucket } from '@svc/sdk';
import { t } from '../../i18n/t.js';

/** The statuses the timeline stacks, bottom to top, with their colours. */
export const TIMELINE_SERIES = [
  { key: 'allowed', label: t('analytics.status.allowed'), colour: '#2e8540' },
  { key: 'rewritten', label: t('analytics.status.rewritten'), colour: '#2b6cb0' },
  { key: 'blocked', label: t('analytics.status.blocked'), colour: '#c0392b' },
  { key: 'error', label: t('analytics.status.error'), colour: '#7f8c8d' },
] as const;

/** One value per bucket: bucket starts (Unix seconds) and each status's count, empty buckets as 0. */
export interface TimelineData {
  x: number[];
  series: number[][];
}

/**
 * The timeline's rows (one per non-empty bucket, spec 4.6) laid on every bucket of [from, to), so that the
 * chart shows quiet hours as zero rather than joining the points around them.
 */
export function timelineData(
  buckets: readonly TimelineBucket[],
  from: string,
  to: string,
  bucket: number,
): TimelineData {
  const step = bucket * 1000;
  const start = Math.floor(Date.parse(from) / step) * step;
  const end = Date.parse(to);
  const slots = Math.max(0, Math.ceil((end - start) / step));
  const x = Array.from({ length: slots }, (_value, index) => (start + index * step) / 1000);
  const series = TIMELINE_SERIES.map(() => new Array<number>(slots).fill(0));
  for (const record of buckets) {
    const at = Date.parse(record.ts);
    const slot = Math.floor((at - start) / step);
    if (slot < 0 || slot >= slots) continue;
    TIMELINE_SERIES.forEach((status, index) => {
      const column = series[index];
      if (column !== undefined) column[slot] = record[status.key];
    });
  }
  return { x, series };
}

/** Running sums of `series` (bottom first), the heights a stacked chart draws. */
export function stacked(series: readonly number[][]): number[][] {
  const sums: number[][] = [];
  series.forEach((values, index) => {
    const below = sums[index - 1];
    sums.push(values.map((value, at) => value + (below?.[at] ?? 0)));
  });
  return sums;
}
