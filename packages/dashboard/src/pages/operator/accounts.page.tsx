import { api } from '../../api/client.js';
import { DateTime } from '../../components/date-time.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { TextareaField } from '../../forms/textarea-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { OperatorFrame } from './operator-frame.js';

const LABELS = { account_id: 'Account id', reason: 'Reason', ticket: 'Ticket' };

/** Starting an owner's account deletion on their behalf (with the cooling-off), with a reason and ticket. */
function StartDeletion() {
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
function CancelDeletion() {
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
        <TextField name="cancel_account_id" label="Account id of the deletion to cancel" spellCheck={false} />
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

/** Account deletion on an owner's behalf, and its cancellation. */
export default function OperatorAccountsPage() {
  return (
    <OperatorFrame title="Accounts">
      <StartDeletion />
      <CancelDeletion />
    </OperatorFrame>
  );
}
