import type { Pop } from '@svc/sdk';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useLocation } from 'wouter';
import { metaQueries } from '../../api/meta.queries.js';
import { fieldId } from '../../forms/field-id.js';
import type { FormValues } from '../../forms/form-values.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import type { ApiForm } from '../../forms/use-api-form.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { instantValue, listValue } from './operator-values.js';

/** What an operator block and a source block have in common: where they apply, and until when. */
export interface EntryScope {
  pops: string[];
  jurisdictions: string[];
  expires_at: string | undefined;
}

/** The scope fields' values of a submitted {@link OperatorEntryForm}. */
export function scopeOf(values: FormValues): EntryScope {
  return {
    pops: values.all('pops'),
    jurisdictions: listValue(values, 'jurisdictions'),
    expires_at: instantValue(values, 'expires_at'),
  };
}

/** A scope as read: every PoP or jurisdiction when empty; PoPs by their names. */
export function scopeText(pops: readonly string[], jurisdictions: readonly string[], known: readonly Pop[]) {
  const name = (id: string) => known.find((pop) => pop.id === id)?.name ?? id;
  const parts = [
    pops.length > 0 ? t('operator.entry.scope.pops', { pops: pops.map(name) }) : '',
    jurisdictions.length > 0 ? jurisdictions.join(', ') : '',
  ];
  return parts.filter((part) => part !== '').join('; ') || t('operator.entry.scope.everywhere');
}

/** The deployment's PoPs (GET /v1/meta/pops), for the field and for reading scopes. */
export function usePops(): readonly Pop[] {
  return useQuery(metaQueries.pops()).data?.pops ?? [];
}

/** The PoPs an entry applies at, chosen from the deployment's (none: every PoP). */
function PopsField({ error }: { error: string | undefined }) {
  const pops = usePops();
  return (
    <div className={error === undefined ? 'field' : 'field field-invalid'}>
      <label htmlFor={fieldId('pops')}>{t('operator.entry.pops')}</label>
      <p className="hint" id={`${fieldId('pops')}-hint`}>
        {t('operator.entry.pops.hint')}
      </p>
      {error !== undefined && <p className="field-error">{error}</p>}
      <select
        id={fieldId('pops')}
        name="pops"
        multiple
        size={Math.min(Math.max(pops.length, 2), 6)}
        aria-describedby={`${fieldId('pops')}-hint`}
        aria-invalid={error === undefined ? undefined : true}
      >
        {pops.map((pop) => (
          <option key={pop.id} value={pop.id}>
            {t('operator.entry.pop', { name: pop.name, id: pop.id })}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The labels of the scope fields, for the problem summary's links. */
const SCOPE_LABELS = {
  pops: t('operator.entry.pops'),
  jurisdictions: t('operator.entry.jurisdictions'),
  expires_at: t('operator.entry.expires'),
};

/**
 * The one form of operator blocks and source blocks: the entry's own fields (children), then where it applies
 * (PoPs, jurisdictions), its expiry and the button; the API's problem above, the outcome announced.
 */
export function OperatorEntryForm<T>({
  id,
  title,
  intro,
  form,
  labels,
  success,
  expiresHint,
  submit,
  busyText,
  children,
}: {
  id: string;
  title: string;
  intro?: ReactNode;
  form: ApiForm<T>;
  labels: Record<string, string>;
  /** What the outcome says once the entry exists. */
  success: (result: T) => ReactNode;
  expiresHint: string;
  submit: string;
  busyText: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {intro}
      {form.problem !== null && (
        <ProblemDisplay problem={form.problem} fieldLabels={{ ...SCOPE_LABELS, ...labels }} focus />
      )}
      {form.result !== undefined && form.problem === null && (
        <p className="notice" role="status">
          {success(form.result)}
        </p>
      )}
      <form onSubmit={form.onSubmit} noValidate className="entry-form">
        {children}
        <fieldset>
          <legend>{t('operator.entry.where')}</legend>
          <PopsField error={form.errorOf('pops')} />
          <TextField
            name="jurisdictions"
            label={SCOPE_LABELS.jurisdictions}
            hint={t('operator.entry.jurisdictions.hint')}
            error={form.errorOf('jurisdictions')}
          />
        </fieldset>
        <TextField
          name="expires_at"
          label={SCOPE_LABELS.expires_at}
          hint={expiresHint}
          type="datetime-local"
          error={form.errorOf('expires_at')}
        />
        <SubmitButton pending={form.pending} busyText={busyText}>
          {submit}
        </SubmitButton>
      </form>
    </section>
  );
}

/** The state filter of an operator list (live, expired, removed), kept in the address. */
export const ENTRY_FILTERS = {
  live: t('operator.entry.status.live'),
  expired: t('operator.entry.status.expired'),
  removed: t('operator.entry.status.removed'),
} as const;

/** The Show control of an operator list: changing it changes the address (`?status=`). */
export function StatusFilter({ id, path, status }: { id: string; path: string; status: string }) {
  const [, navigate] = useLocation();
  return (
    <div className="field">
      <label htmlFor={id}>{t('operator.entry.show')}</label>
      <select id={id} value={status} onChange={(event) => navigate(`${path}?status=${event.target.value}`)}>
        {Object.entries(ENTRY_FILTERS).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}
