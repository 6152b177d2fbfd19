import type { Blocklist, Device } from '@svc/sdk';
import type { FormEvent } from 'react';
import { CheckboxField } from '../../forms/checkbox-field.js';
import { fieldId } from '../../forms/field-id.js';
import { FormValues } from '../../forms/form-values.js';
import { TextField } from '../../forms/text-field.js';
import { type LogView, STATUSES } from './log-filters.js';

/** Labels of the filters, also used by the problem summary. */
export const FILTER_LABELS: Readonly<Record<string, string>> = {
  from: 'From',
  to: 'To',
  status: 'Status',
  device: 'Devices',
  qname: 'Domain',
  qtype: 'Query types',
  list: 'Blocklists',
  client_ip: 'Client IP address',
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

/** Every filter of spec 4.6; applying it changes the page's address, which runs the query. */
export function LogFilterForm({ view, devices, lists, errorOf, onApply, onClear }: LogFilterFormProps) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = new FormValues(new FormData(event.currentTarget));
    const mode = values.text('mode') === 'search' ? 'search' : 'live';
    onApply({
      mode,
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
    });
  };
  return (
    <form
      className="log-filters"
      onSubmit={submit}
      noValidate
      key={JSON.stringify(view)}
      aria-label="Log filters"
    >
      <fieldset className="inline-choices">
        <legend>Show</legend>
        <div className="checkbox">
          <input type="radio" id="mode-live" name="mode" value="live" defaultChecked={view.mode === 'live'} />
          <label htmlFor="mode-live">Live: new queries as they happen</label>
        </div>
        <div className="checkbox">
          <input
            type="radio"
            id="mode-search"
            name="mode"
            value="search"
            defaultChecked={view.mode === 'search'}
          />
          <label htmlFor="mode-search">Search: earlier queries, newest first</label>
        </div>
      </fieldset>
      <div className="filter-grid">
        <TextField
          name="from"
          label={FILTER_LABELS.from ?? 'From'}
          hint="Search only. Empty: 31 days before the end."
          type="datetime-local"
          defaultValue={localInput(view.from)}
          error={errorOf('from')}
        />
        <TextField
          name="to"
          label={FILTER_LABELS.to ?? 'To'}
          hint="Search only. Empty: now."
          type="datetime-local"
          defaultValue={localInput(view.to)}
          error={errorOf('to')}
        />
        <TextField
          name="qname"
          label={FILTER_LABELS.qname ?? 'Domain'}
          hint="Search: part of the name. Live: the exact name."
          defaultValue={view.qname ?? ''}
          error={errorOf('qname')}
          spellCheck={false}
        />
        <TextField
          name="client_ip"
          label={FILTER_LABELS.client_ip ?? 'Client IP address'}
          defaultValue={view.client_ip ?? ''}
          error={errorOf('client_ip')}
          spellCheck={false}
        />
        <TextField
          name="qtype"
          label={FILTER_LABELS.qtype ?? 'Query types'}
          hint="Names or numbers, separated by commas: A, AAAA, 65."
          defaultValue={view.qtype.join(', ')}
          error={errorOf('qtype')}
          spellCheck={false}
        />
      </div>
      <fieldset className="inline-choices" id={fieldId('status')}>
        <legend>{FILTER_LABELS.status}</legend>
        {errorOf('status') !== undefined && <p className="field-error">{errorOf('status')}</p>}
        {STATUSES.map((status) => (
          <CheckboxField
            key={status}
            id={`${fieldId('status')}-${status}`}
            name="status"
            value={status}
            label={status[0]?.toUpperCase() + status.slice(1)}
            defaultChecked={view.status.includes(status)}
          />
        ))}
      </fieldset>
      <div className="filter-grid">
        <div className={errorOf('device') === undefined ? 'field' : 'field field-invalid'}>
          <label htmlFor={fieldId('device')}>{FILTER_LABELS.device}</label>
          <p className="hint">None chosen: every device.</p>
          {errorOf('device') !== undefined && <p className="field-error">{errorOf('device')}</p>}
          <select id={fieldId('device')} name="device" multiple size={4} defaultValue={view.device}>
            {devices.map((device) => (
              <option key={device.id} value={device.id}>
                {device.label}
              </option>
            ))}
            {view.device
              .filter((id) => !devices.some((device) => device.id === id))
              .map((id) => (
                <option key={id} value={id}>
                  {id}
                </option>
              ))}
          </select>
        </div>
        <div className={errorOf('list') === undefined ? 'field' : 'field field-invalid'}>
          <label htmlFor={fieldId('list')}>{FILTER_LABELS.list}</label>
          <p className="hint">Queries blocked by these lists.</p>
          {errorOf('list') !== undefined && <p className="field-error">{errorOf('list')}</p>}
          <select id={fieldId('list')} name="list" multiple size={4} defaultValue={view.list}>
            {lists.map((list) => (
              <option key={list.id} value={String(list.id)}>
                {list.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="actions">
        <button type="submit" className="primary">
          Apply filters
        </button>
        <button type="button" onClick={onClear}>
          Clear filters
        </button>
      </div>
    </form>
  );
}
