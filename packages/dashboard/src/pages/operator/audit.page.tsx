import { type AdminAuditEntry, AuditActions } from '@svc/sdk';
import { type FormEvent, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { adminKeys } from '../../api/admin.queries.js';
import { api } from '../../api/client.js';
import { DateTime } from '../../components/date-time.js';
import { ResponsiveTable } from '../../components/responsive-table.js';
import { t } from '../../i18n/t.js';
import { ActorName } from './actor-name.js';
import { OperatorFrame } from './operator-frame.js';
import { PagedList, usePagedList } from './paged-list.js';

/** An entry's details in one short line. */
function detailsOf(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(
      ([key, value]) =>
        `${key.replace(/_/g, ' ')}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`,
    )
    .join(' · ');
}

/**
 * The actions to filter on, by their words in the page's language and sorted by them; an action in the address
 * that this dashboard does not know (a later API's) stays choosable, as the API names it.
 */
function actionChoices(current: string): { value: string; label: string }[] {
  const known: readonly string[] = AuditActions;
  const actions = current === '' || known.includes(current) ? known : [...known, current];
  return actions
    .map((value) => ({ value, label: t('account.audit.actionName', { action: value }) }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** The organisation and action filters, applied through the page's address. */
function AuditFilters({ orgId, action }: { orgId: string; action: string }) {
  const [, navigate] = useLocation();
  const [typedOrg, setTypedOrg] = useState(orgId);
  const [chosenAction, setChosenAction] = useState(action);
  const filter = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams();
    if (typedOrg.trim() !== '') next.set('org_id', typedOrg.trim());
    if (chosenAction !== '') next.set('action', chosenAction);
    navigate(`/operator/audit${next.size > 0 ? `?${next}` : ''}`);
  };
  return (
    <form onSubmit={filter} className="inline-form" aria-label={t('operator.audit.filters')}>
      <div className="field">
        <label htmlFor="audit-org">{t('operator.audit.org')}</label>
        <input
          id="audit-org"
          value={typedOrg}
          onChange={(event) => setTypedOrg(event.target.value)}
          spellCheck={false}
        />
      </div>
      <div className="field">
        <label htmlFor="audit-action">{t('operator.audit.action')}</label>
        <select
          id="audit-action"
          value={chosenAction}
          onChange={(event) => setChosenAction(event.target.value)}
        >
          <option value="">{t('operator.audit.anyAction')}</option>
          {actionChoices(action).map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="primary">
        {t('operator.audit.filter')}
      </button>
    </form>
  );
}

/** The entries as a table, a card each on a phone: who by their email, what in words. */
function AuditTable({ entries }: { entries: readonly AdminAuditEntry[] }) {
  return (
    <ResponsiveTable
      caption={t('operator.audit.caption')}
      rows={entries}
      rowKey={(entry) => `${entry.org_id}:${entry.id}`}
      columns={[
        { header: t('operator.audit.when'), cell: (entry) => <DateTime value={entry.created_at} /> },
        { header: t('operator.audit.organisation'), cell: (entry) => <code>{entry.org_id}</code> },
        {
          header: t('operator.audit.action'),
          cell: (entry) => t('account.audit.actionName', { action: entry.action }),
        },
        {
          header: t('operator.audit.by'),
          cell: (entry) => entry.actor_email ?? <ActorName actor={entry.actor} />,
        },
        { header: t('operator.audit.on'), cell: (entry) => entry.target },
        { header: t('operator.audit.details'), cell: (entry) => detailsOf(entry.details) },
      ]}
    />
  );
}

/** Every organisation's audit log, newest first, filtered by organisation and action. */
export default function OperatorAuditPage() {
  const params = new URLSearchParams(useSearch());
  const orgId = params.get('org_id') ?? '';
  const action = params.get('action') ?? '';
  const entries = usePagedList(adminKeys.audit(orgId, action), (cursor) =>
    api.admin.audit
      .list({ limit: 50, ...(orgId === '' ? {} : { orgId }), ...(action === '' ? {} : { action }) })
      .page(cursor),
  );
  return (
    <OperatorFrame title={t('operator.audit.title')}>
      <AuditFilters key={`${orgId}:${action}`} orgId={orgId} action={action} />
      <PagedList list={entries} empty={t('operator.audit.none')} more={t('operator.audit.more')}>
        {(items) => <AuditTable entries={items} />}
      </PagedList>
    </OperatorFrame>
  );
}
