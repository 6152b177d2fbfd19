import { formatDateTime } from '../../i18n/format.js';
import { t } from '../../i18n/t.js';

/** The ranges the picker offers, newest-first windows ending now. */
export const PRESETS = [
  { key: '1h', label: t('analytics.range.lastHour'), ms: 3_600_000 },
  { key: '24h', label: t('analytics.range.last24h'), ms: 86_400_000 },
  { key: '7d', label: t('analytics.range.last7d'), ms: 7 * 86_400_000 },
  { key: '30d', label: t('analytics.range.last30d'), ms: 30 * 86_400_000 },
] as const;

/** The window analytics shows: RFC 3339 bounds, the timeline's bucket, and how to name it. */
export interface TimeRange {
  /** `1h`, `24h`, `7d`, `30d`, or `custom`. */
  key: string;
  from: string;
  to: string;
  /** Timeline bucket width in seconds. */
  bucket: number;
  label: string;
}

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Hourly buckets up to 31 days (the edge counts hourly totals), daily beyond. */
function bucketFor(ms: number): number {
  return ms > 31 * DAY ? 86_400 : 3_600;
}

/**
 * The range in the page's address: `?range=7d` (default `24h`), or `?from=…&to=…` for a custom window. `now` is
 * when the page last refreshed, rounded up to the next whole minute so that repeated renders ask the same.
 */
export function timeRangeOf(search: string, now: number): TimeRange {
  const params = new URLSearchParams(search);
  const from = params.get('from');
  const to = params.get('to');
  if (from !== null && to !== null) {
    const start = Date.parse(from);
    const end = Date.parse(to);
    const span = Number.isNaN(start) || Number.isNaN(end) ? DAY : Math.max(end - start, HOUR);
    return {
      key: 'custom',
      from,
      to,
      bucket: bucketFor(span),
      label:
        Number.isNaN(start) || Number.isNaN(end)
          ? t('analytics.range.between', { from, to })
          : t('analytics.range.between', {
              from: formatDateTime(new Date(start)),
              to: formatDateTime(new Date(end)),
            }),
    };
  }
  const preset = PRESETS.find((each) => each.key === params.get('range')) ?? PRESETS[1];
  const end = Math.ceil(now / 60_000) * 60_000;
  return {
    key: preset.key,
    from: new Date(end - preset.ms).toISOString(),
    to: new Date(end).toISOString(),
    bucket: bucketFor(preset.ms),
    label: preset.label,
  };
}
