import type { OperatorAccountMatch } from '@svc/sdk';
import { useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { adminKeys } from '../../api/admin.queries.js';
import { api } from '../../api/client.js';
import { DateTime } from '../../components/date-time.js';
import { ResponsiveTable } from '../../components/responsive-table.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { TextareaField } from '../../forms/textarea-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { OperatorFrame } from './operator-frame.js';
import { SearchForm } from './operator-search.js';
import { PagedList, usePagedList } from './paged-list.js';

const LABELS = {
  account_id: t('operator.accounts.accountId'),
  reason: t('operator.accounts.reason'),
  ticket: t('operator.accounts.ticket'),
};

/** Starting an owner's account deletion on their behalf (with the cooling-off), with a reason and ticket. */
function StartDeletion({ accountId }: { accountId: string }) {
  const form = useApiForm((values) =>
    api.admin.accounts.delete(values.text('account_id').trim(), {
      reason: values.text('reason'),
      ...(values.optionalText('ticket') === undefined ? {} : { ticket: values.text('ticket').trim() }),
    }),
  );
  return (
    <section aria-labelledby="start-deletion">
      <h2 id="start-deletion">{t('operator.accounts.delete.title')}</h2>
      <p>{t('operator.accounts.delete.intro')}</p>
      {form.problem !== null && <ProblemDisplay problem={form.problem} fieldLabels={LABELS} focus />}
      {form.result !== undefined && form.problem === null && (
        <p className="notice" role="status">
          {t('operator.accounts.delete.started', { email: form.result.email })}
          <DateTime value={form.result.deletion_due_at} />.
        </p>
      )}
      <form onSubmit={form.onSubmit} noValidate>
        <TextField
          name="account_id"
          label={LABELS.account_id}
          hint={t('operator.accounts.accountId.hint')}
          defaultValue={accountId}
          spellCheck={false}
          error={form.errorOf('account_id')}
        />
        <TextareaField
          name="reason"
          label={LABELS.reason}
          hint={t('operator.accounts.reason.hint')}
          rows={2}
          error={form.errorOf('reason')}
        />
        <TextField
          name="ticket"
          label={LABELS.ticket}
          hint={t('operator.accounts.ticket.hint')}
          error={form.errorOf('ticket')}
        />
        <SubmitButton pending={form.pending} busyText={t('operator.accounts.delete.busy')}>
          {t('operator.accounts.delete.button')}
        </SubmitButton>
      </form>
    </section>
  );
}

/** Cancelling a pending deletion, as the owner's undelete does. */
function CancelDeletion({ accountId }: { accountId: string }) {
  const form = useApiForm((values) =>
    api.admin.accounts.undelete(values.text('cancel_account_id').trim(), {
      ...(values.optionalText('cancel_reason') === undefined ? {} : { reason: values.text('cancel_reason') }),
      ...(values.optionalText('cancel_ticket') === undefined
        ? {}
        : { ticket: values.text('cancel_ticket').trim() }),
    }),
  );
  const names = { reason: 'cancel_reason', ticket: 'cancel_ticket' };
  return (
    <section aria-labelledby="cancel-deletion">
      <h2 id="cancel-deletion">{t('operator.accounts.cancel.title')}</h2>
      {form.problem !== null && (
        <ProblemDisplay problem={form.problem} fieldLabels={LABELS} fieldNames={names} focus />
      )}
      {form.result !== undefined && form.problem === null && (
        <p className="notice" role="status">
          {t('operator.accounts.cancel.done')}
        </p>
      )}
      <form onSubmit={form.onSubmit} noValidate>
        <TextField
          name="cancel_account_id"
          label={t('operator.accounts.cancel.accountId')}
          defaultValue={accountId}
          spellCheck={false}
        />
        <TextareaField
          name="cancel_reason"
          label={t('operator.accounts.cancel.reason')}
          rows={2}
          error={form.errorOf('reason')}
        />
        <TextField
          name="cancel_ticket"
          label={t('operator.accounts.cancel.ticket')}
          error={form.errorOf('ticket')}
        />
        <SubmitButton pending={form.pending} busyText={t('operator.accounts.cancel.busy')}>
          {t('operator.accounts.cancel.button')}
        </SubmitButton>
      </form>
    </section>
  );
}

/** An account's role in its organisation, and whether it is an operator. */
function roleText(account: OperatorAccountMatch): string {
  const role = account.role === 'owner' ? t('operator.accounts.role.owner') : account.role;
  return account.is_admin ? t('operator.accounts.role.withOperator', { role }) : role;
}

/** The accounts a search found, each offered to the deletion forms below. */
function AccountMatches({ text, choose }: { text: string; choose: (account: OperatorAccountMatch) => void }) {
  const list = usePagedList(adminKeys.accountSearch(text), (cursor) =>
    api.admin.accounts.search(text, { limit: 20 }).page(cursor),
  );
  return (
    <PagedList list={list} empty={t('operator.accounts.none', { text })} more={t('operator.accounts.more')}>
      {(items) => (
        <ResponsiveTable
          caption={t('operator.accounts.caption', { text })}
          rows={items}
          rowKey={(account) => account.id}
          columns={[
            { header: t('operator.accounts.email'), cell: (account) => account.email },
            { header: t('operator.accounts.role'), cell: roleText },
            {
              header: t('operator.accounts.created'),
              cell: (account) => <DateTime value={account.created_at} />,
            },
            {
              header: t('operator.accounts.deletion'),
              cell: (account) =>
                account.deletion_due_at === null ? (
                  t('operator.accounts.deletion.none')
                ) : (
                  <>
                    {t('operator.accounts.deletion.due')}
                    <DateTime value={account.deletion_due_at} />
                  </>
                ),
            },
            {
              header: t('operator.accounts.act'),
              cell: (account) => (
                <button type="button" onClick={() => choose(account)}>
                  {t('operator.accounts.choose', { email: account.email })}
                </button>
              ),
            },
          ]}
        />
      )}
    </PagedList>
  );
}

/** Finding an account by email or id, deleting it on its owner's behalf, and cancelling that deletion. */
export default function OperatorAccountsPage() {
  const [, navigate] = useLocation();
  const text = new URLSearchParams(useSearch()).get('q') ?? '';
  const [chosen, setChosen] = useState<OperatorAccountMatch | null>(null);
  const accountId = chosen?.id ?? '';
  return (
    <OperatorFrame title={t('operator.accounts.title')}>
      <SearchForm
        id="find-account"
        label={t('operator.accounts.find')}
        hint={t('operator.accounts.find.hint')}
        initial={text}
        button={t('operator.accounts.find.button')}
        onSearch={(typed) => navigate(`/operator/accounts?q=${encodeURIComponent(typed)}`)}
      />
      {text !== '' && <AccountMatches key={text} text={text} choose={setChosen} />}
      {chosen !== null && (
        <p className="notice" role="status">
          {t('operator.accounts.chosen', { email: chosen.email })}
        </p>
      )}
      <StartDeletion key={`start-${accountId}`} accountId={accountId} />
      <CancelDeletion key={`cancel-${accountId}`} accountId={accountId} />
    </OperatorFrame>
  );
}
