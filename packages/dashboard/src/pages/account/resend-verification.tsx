import { api } from '../../api/client.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';

/** Asks for a new verification email (the link expired or was lost). */
export function ResendVerification() {
  const form = useApiForm((values) => api.auth.resendVerification(values.text('email')));
  if (form.result !== undefined) return <p role="status">{t('account.resend.sent')}</p>;
  return (
    <section aria-labelledby="resend-title">
      <h2 id="resend-title">{t('account.resend.title')}</h2>
      {form.problem !== null && (
        <ProblemDisplay problem={form.problem} fieldLabels={{ email: t('account.resend.email') }} focus />
      )}
      <form onSubmit={form.onSubmit} noValidate>
        <TextField
          name="email"
          label={t('account.resend.email')}
          type="email"
          autoComplete="email"
          required
          error={form.errorOf('email')}
        />
        <SubmitButton pending={form.pending}>{t('account.resend.submit')}</SubmitButton>
      </form>
    </section>
  );
}
