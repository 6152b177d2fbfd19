import type { AuditEntry } from '@svc/sdk';
import { useInfiniteQuery } from '@tanstack/react-query';
import { accountQueries } from '../../api/account.queries.js';
import { DateTime } from '../../components/date-time.js';
import { ResponsiveTable } from '../../components/responsive-table.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { AccountTabs } from './account-tabs.js';

/** What the audit log's details say, in one short line. */
function detailsOf(details: Record<string, unknown>): string {
  return Object.entries(details)
    .filter(([, value]) => value !== null && value !== undefined && typeof value !== 'object')
    .map(([key, value]) => `${key.replace(/_/g, ' ')}: ${String(value)}`)
    .join(' · ');
}

/**
 * Who made a change, as a person reads it: the email the API resolved, marked when it came through an API
 * token; a node, or someone the API does not name to this organisation (an operator, an erased account),
 * in words, never a raw id.
 */
export function actorOf(entry: Pick<AuditEntry, 'actor' | 'actor_email' | 'action'>): string {
  if (entry.actor_email !== null) {
    return entry.actor.startsWith('token:')
      ? t('account.audit.viaToken', { email: entry.actor_email })
      : entry.actor_email;
  }
  if (entry.actor.startsWith('node:')) return t('account.audit.byNode');
  if (entry.action.startsWith('admin.') || entry.action === 'account.deletion_canceled')
    return t('account.audit.byOperator');
  return t('account.audit.byUnknown');
}

/** The organisation's audit log, newest first, fifty at a time. */
export default function AuditPage() {
  const entries = useInfiniteQuery(accountQueries.audit());
  const rows = entries.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <>
      <h1>{t('account.audit.title')}</h1>
      <AccountTabs />
      <p>{t('account.audit.intro')}</p>
      {entries.isError && (
        <ProblemDisplay problem={problemOf(entries.error)} onRetry={() => void entries.refetch()} />
      )}
      {entries.isPending && <p aria-busy="true">{t('common.loading')}</p>}
      {entries.isSuccess && rows.length === 0 && <p>{t('account.audit.empty')}</p>}
      {rows.length > 0 && (
        <ResponsiveTable
          caption={t('account.audit.caption')}
          rows={rows}
          rowKey={(entry) => entry.id}
          columns={[
            { header: t('account.audit.when'), cell: (entry) => <DateTime value={entry.created_at} /> },
            {
              header: t('account.audit.action'),
              cell: (entry) => t('account.audit.actionName', { action: entry.action }),
            },
            { header: t('account.audit.by'), cell: actorOf },
            { header: t('account.audit.on'), cell: (entry) => entry.target },
            {
              header: t('account.audit.from'),
              cell: (entry) => entry.client_ip ?? t('account.audit.noAddress'),
            },
            { header: t('account.audit.details'), cell: (entry) => detailsOf(entry.details) },
          ]}
        />
      )}
      {entries.hasNextPage && (
        <button
          type="button"
          disabled={entries.isFetchingNextPage}
          onClick={() => void entries.fetchNextPage()}
        >
          {t('account.audit.older')}
        </button>
      )}
    </>
  );
}
