import type { Blocklist, Device } from '@svc/sdk';
import type { FormEvent } from 'react';
import { CheckboxField } from '../../forms/checkbox-field.js';
import { fieldId } from '../../forms/field-id.js';
import { FormValues } from '../../forms/form-values.js';
import { TextField } from '../../forms/text-field.js';
import { t } from '../../i18n/t.js';
import { type LogView, STATUSES } from './log-filters.js';
import { statusLabel } from './log-labels.js';

/** Labels of the filters, also used by the problem summary. */
export const FILTER_LABELS: Readonly<Record<string, string>> = {
  from: t('logs.filter.from'),
  to: t('logs.filter.to'),
  status: t('logs.filter.status'),
  device: t('logs.filter.device'),
  qname: t('logs.filter.qname'),
  qtype: t('logs.filter.qtype'),
  list: t('logs.filter.list'),
  client_ip: t('logs.filter.client_ip'),
};

/** `YYYY-MM-DDTHH:MM` in local time for a datetime-local input, from the API's RFC 3339 or milliseconds. */
function localInput(value: string | undefined): string {
  if (value === undefined) return '';
  const date = new Date(/^\d+$/.test(value) ? Number(value) : value);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (part: number) => String(part).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A datetime-local value as RFC 3339 (UTC), or undefined when empty. */
function instantOf(value: string): string | undefined {
  if (value.trim() === '') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

/** Props of {@link LogFilterForm}. */
export interface LogFilterFormProps {
  view: LogView;
  devices: readonly Device[];
  lists: readonly Blocklist[];
  /** The API's message for a filter, from the last query's 422. */
  errorOf: (name: string) => string | undefined;
  onApply: (view: LogView) => void;
  onClear: () => void;
}

/** The view a submitted filter form asks for. */
function viewOf(form: HTMLFormElement): LogView {
  const values = new FormValues(new FormData(form));
  return {
    mode: values.text('mode') === 'search' ? 'search' : 'live',
    from: instantOf(values.text('from')),
    to: instantOf(values.text('to')),
    status: values.all('status'),
    device: values.all('device'),
    qname: values.optionalText('qname'),
    qtype: values
      .text('qtype')
      .split(/[\s,]+/)
      .filter((part) => part !== ''),
    list: values.all('list'),
    client_ip: values.optionalText('client_ip'),
  };
}

/** Live tail or search. */
function ModeChoice({ mode }: { mode: LogView['mode'] }) {
  return (
    <fieldset className="inline-choices">
      <legend>{t('logs.filter.show')}</legend>
      <div className="checkbox">
        <input type="radio" id="mode-live" name="mode" value="live" defaultChecked={mode === 'live'} />
        <label htmlFor="mode-live">{t('logs.filter.live')}</label>
      </div>
      <div className="checkbox">
        <input type="radio" id="mode-search" name="mode" value="search" defaultChecked={mode === 'search'} />
        <label htmlFor="mode-search">{t('logs.filter.search')}</label>
      </div>
    </fieldset>
  );
}

/** The time range and the typed filters. */
function TypedFilters({ view, errorOf }: Pick<LogFilterFormProps, 'view' | 'errorOf'>) {
  return (
    <div className="filter-grid">
      <TextField
        name="from"
        label={t('logs.filter.from')}
        hint={t('logs.filter.from.hint')}
        type="datetime-local"
        defaultValue={localInput(view.from)}
        error={errorOf('from')}
      />
      <TextField
        name="to"
        label={t('logs.filter.to')}
        hint={t('logs.filter.to.hint')}
        type="datetime-local"
        defaultValue={localInput(view.to)}
        error={errorOf('to')}
      />
      <TextField
        name="qname"
        label={t('logs.filter.qname')}
        hint={t('logs.filter.qname.hint')}
        defaultValue={view.qname ?? ''}
        error={errorOf('qname')}
        spellCheck={false}
      />
      <TextField
        name="client_ip"
        label={t('logs.filter.client_ip')}
        defaultValue={view.client_ip ?? ''}
        error={errorOf('client_ip')}
        spellCheck={false}
      />
      <TextField
        name="qtype"
        label={t('logs.filter.qtype')}
        hint={t('logs.filter.qtype.hint')}
        defaultValue={view.qtype.join(', ')}
        error={errorOf('qtype')}
        spellCheck={false}
      />
    </div>
  );
}

/** The statuses to show, by their words (never the API's `error`). */
function StatusChoices({ chosen, error }: { chosen: readonly string[]; error: string | undefined }) {
  return (
    <fieldset className="inline-choices" id={fieldId('status')}>
      <legend>{t('logs.filter.status')}</legend>
      {error !== undefined && <p className="field-error">{error}</p>}
      {STATUSES.map((status) => (
        <CheckboxField
          key={status}
          id={`${fieldId('status')}-${status}`}
          name="status"
          value={status}
          label={statusLabel(status)}
          defaultChecked={chosen.includes(status)}
        />
      ))}
    </fieldset>
  );
}

/** A labelled multiple choice of named things (devices, lists), with its hint and the API's error. */
function MultiSelect({
  name,
  hint,
  error,
  chosen,
  options,
}: {
  name: 'device' | 'list';
  hint: string;
  error: string | undefined;
  chosen: readonly string[];
  options: readonly { value: string; label: string }[];
}) {
  return (
    <div className={error === undefined ? 'field' : 'field field-invalid'}>
      <label htmlFor={fieldId(name)}>{FILTER_LABELS[name]}</label>
      <p className="hint">{hint}</p>
      {error !== undefined && <p className="field-error">{error}</p>}
      <select id={fieldId(name)} name={name} multiple size={4} defaultValue={[...chosen]}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Every filter of spec 4.6; applying it changes the page's address, which runs the query. */
export function LogFilterForm({ view, devices, lists, errorOf, onApply, onClear }: LogFilterFormProps) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onApply(viewOf(event.currentTarget));
  };
  // A device removed since the filter was set is still offered, by its id, so that it can be unchosen.
  const gone = view.device.filter((id) => !devices.some((device) => device.id === id));
  return (
    <form
      className="log-filters"
      onSubmit={submit}
      noValidate
      key={JSON.stringify(view)}
      aria-label={t('logs.filter.form')}
    >
      <ModeChoice mode={view.mode} />
      <TypedFilters view={view} errorOf={errorOf} />
      <StatusChoices chosen={view.status} error={errorOf('status')} />
      <div className="filter-grid">
        <MultiSelect
          name="device"
          hint={t('logs.filter.device.hint')}
          error={errorOf('device')}
          chosen={view.device}
          options={[
            ...devices.map((device) => ({ value: device.id, label: device.label })),
            ...gone.map((id) => ({ value: id, label: id })),
          ]}
        />
        <MultiSelect
          name="list"
          hint={t('logs.filter.list.hint')}
          error={errorOf('list')}
          chosen={view.list}
          options={lists.map((list) => ({ value: String(list.id), label: list.name }))}
        />
      </div>
      <div className="actions">
        <button type="submit" className="primary">
          {t('logs.filter.apply')}
        </button>
        <button type="button" onClick={onClear}>
          {t('logs.filter.clear')}
        </button>
      </div>
    </form>
  );
}
