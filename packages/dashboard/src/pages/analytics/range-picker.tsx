import { type FormEvent, useState } from 'react';
import { useLocation } from 'wouter';
import { FormValues } from '../../forms/form-values.js';
import { t } from '../../i18n/t.js';
import { PRESETS, type TimeRange } from './time-range.js';

/** `YYYY-MM-DDTHH:MM` in local time for a datetime-local input. */
function localInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (part: number) => String(part).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The range picker: presets, or a custom window; it changes the page's address. */
export function RangePicker({
  path,
  range,
  onRefresh,
}: {
  path: string;
  range: TimeRange;
  onRefresh: () => void;
}) {
  const [, navigate] = useLocation();
  const [custom, setCustom] = useState(range.key === 'custom');
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = new FormValues(new FormData(event.currentTarget));
    const key = values.text('range');
    if (key !== 'custom') {
      navigate(`${path}?range=${key}`);
      return;
    }
    const from = new Date(values.text('from'));
    const to = new Date(values.text('to'));
    const iso = (date: Date, typed: string) => (Number.isNaN(date.getTime()) ? typed : date.toISOString());
    navigate(
      `${path}?${new URLSearchParams({ from: iso(from, values.text('from')), to: iso(to, values.text('to')) })}`,
    );
  };
  return (
    <form
      className="range-picker"
      onSubmit={submit}
      aria-label={t('analytics.range')}
      key={`${range.key}:${range.from}`}
    >
      <div className="field">
        <label htmlFor="range">{t('analytics.range')}</label>
        <select
          id="range"
          name="range"
          defaultValue={range.key}
          onChange={(event) => setCustom(event.target.value === 'custom')}
        >
          {PRESETS.map((preset) => (
            <option key={preset.key} value={preset.key}>
              {preset.label}
            </option>
          ))}
          <option value="custom">{t('analytics.range.custom')}</option>
        </select>
      </div>
      {custom && (
        <>
          <div className="field">
            <label htmlFor="range-from">{t('analytics.range.from')}</label>
            <input id="range-from" name="from" type="datetime-local" defaultValue={localInput(range.from)} />
          </div>
          <div className="field">
            <label htmlFor="range-to">{t('analytics.range.to')}</label>
            <input id="range-to" name="to" type="datetime-local" defaultValue={localInput(range.to)} />
          </div>
        </>
      )}
      <div className="actions">
        <button type="submit" className="primary">
          {t('analytics.range.show')}
        </button>
        <button type="button" onClick={onRefresh}>
          {t('analytics.range.refresh')}
        </button>
      </div>
    </form>
  );
}
