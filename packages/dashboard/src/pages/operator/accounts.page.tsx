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
import { ProblemDisplay } from '../../problems/problem-display.js';
import { OperatorFrame } from './operator-frame.js';
import { SearchForm } from './operator-search.js';
import { PagedList, usePagedList } from './paged-list.js';

const LABELS = { account_id: 'Account id', reason: 'Reason', ticket: 'Ticket' };

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
      <h2 id="start-deletion">Delete an account on its owner’s behalf</h2>
      <p>For an owner who asked by email. The owner can still cancel until the cooling-off ends.</p>
      {form.problem !== null && <ProblemDisplay problem={form.problem} fieldLabels={LABELS} focus />}
      {form.result !== undefined && form.problem === null && (
        <p className="notice" role="status">
          Deletion of {form.result.email} started: it is erased{' '}
          <DateTime value={form.result.deletion_due_at} />.
        </p>
      )}
      <form onSubmit={form.onSubmit} noValidate>
        <TextField
          name="account_id"
          label={LABELS.account_id}
          hint="Choose an account found above, or paste its id."
          defaultValue={accountId}
          spellCheck={false}
          error={form.errorOf('account_id')}
        />
        <TextareaField
          name="reason"
          label={LABELS.reason}
          hint="Required; seen by operators only."
          rows={2}
          error={form.errorOf('reason')}
        />
        <TextField
          name="ticket"
          label={LABELS.ticket}
          hint="Support ticket or data-rights log reference, quoted to the owner."
          error={form.errorOf('ticket')}
        />
        <SubmitButton pending={form.pending} busyText="Starting…">
          Start the deletion
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
      <h2 id="cancel-deletion">Cancel a pending deletion</h2>
      {form.problem !== null && (
        <ProblemDisplay problem={form.problem} fieldLabels={LABELS} fieldNames={names} focus />
      )}
      {form.result !== undefined && form.problem === null && (
        <p className="notice" role="status">
          Deletion cancelled: the account is active again and its profiles are restored.
        </p>
      )}
      <form onSubmit={form.onSubmit} noValidate>
        <TextField
          name="cancel_account_id"
          label="Account id of the deletion to cancel"
          defaultValue={accountId}
          spellCheck={false}
        />
        <TextareaField
          name="cancel_reason"
          label="Reason for cancelling"
          rows={2}
          error={form.errorOf('reason')}
        />
        <TextField name="cancel_ticket" label="Ticket of the cancellation" error={form.errorOf('ticket')} />
        <SubmitButton pending={form.pending} busyText="Cancelling…">
          Cancel the deletion
        </SubmitButton>
      </form>
    </section>
  );
}

/** The accounts a search found, each offered to the deletion forms below. */
function AccountMatches({ text, choose }: { text: string; choose: (account: OperatorAccountMatch) => void }) {
  const list = usePagedList(adminKeys.accountSearch(text), (cursor) =>
    api.admin.accounts.search(text, { limit: 20 }).page(cursor),
  );
  return (
    <PagedList list={list} empty={`No account matches “${text}”.`} more="Show more accounts">
      {(items) => (
        <ResponsiveTable
          caption={`Accounts matching “${text}”, newest first`}
          rows={items}
          rowKey={(account) => account.id}
          columns={[
            { header: 'Email', cell: (account) => account.email },
            {
              header: 'Role',
              cell: (account) =>
                `${account.role === 'owner' ? 'Owner' : account.role}${account.is_admin ? ', operator' : ''}`,
            },
            { header: 'Created', cell: (account) => <DateTime value={account.created_at} /> },
            {
              header: 'Deletion',
              cell: (account) =>
                account.deletion_due_at === null ? (
                  'None'
                ) : (
                  <>
                    Due <DateTime value={account.deletion_due_at} />
                  </>
                ),
            },
            {
              header: 'Act on it',
              cell: (account) => (
                <button type="button" onClick={() => choose(account)}>
                  Choose {account.email}
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
    <OperatorFrame title="Accounts">
      <SearchForm
        id="find-account"
        label="Find an account"
        hint="Its email (or part of it), or its account or organisation id."
        initial={text}
        button="Find accounts"
        onSearch={(typed) => navigate(`/operator/accounts?q=${encodeURIComponent(typed)}`)}
      />
      {text !== '' && <AccountMatches key={text} text={text} choose={setChosen} />}
      {chosen !== null && (
        <p className="notice" role="status">
          Chosen: {chosen.email}. Its id is in the forms below.
        </p>
      )}
      <StartDeletion key={`start-${accountId}`} accountId={accountId} />
      <CancelDeletion key={`cancel-${accountId}`} accountId={accountId} />
    </OperatorFrame>
  );
}
