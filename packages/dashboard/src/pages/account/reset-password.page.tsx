import { Link, useSearch } from 'wouter';
import { api } from '../../api/client.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';

/** Step one: ask for the emailed link. */
function RequestReset() {
  const form = useApiForm((values) => api.auth.requestPasswordReset(values.text('email')));
  if (form.result !== undefined)
    return (
      <div role="status">
        <h2>{t('account.reset.checkEmail')}</h2>
        <p>{t('account.reset.sent')}</p>
      </div>
    );
  return (
    <>
      <p>{t('account.reset.intro')}</p>
      {form.problem !== null && (
        <ProblemDisplay problem={form.problem} fieldLabels={{ email: t('account.reset.email') }} focus />
      )}
      <form onSubmit={form.onSubmit} noValidate>
        <TextField
          name="email"
          label={t('account.reset.email')}
          type="email"
          autoComplete="email"
          required
          error={form.errorOf('email')}
        />
        <SubmitButton pending={form.pending}>{t('account.reset.send')}</SubmitButton>
      </form>
    </>
  );
}

/** Step two, from the emailed link `/reset-password?token=rst_…`: choose the new password. */
function ChooseNewPassword({ token }: { token: string }) {
  const form = useApiForm((values) =>
    api.auth.confirmPasswordReset({ token, new_password: values.text('new_password') }),
  );
  if (form.result !== undefined)
    return (
      <div role="status">
        <h2>{t('account.reset.changedTitle')}</h2>
        <p>{t('account.reset.changed')}</p>
        <p>
          <Link href="/login">{t('account.reset.signIn')}</Link>
        </p>
      </div>
    );
  const linkProblem =
    form.problem !== null && ['invalid_token', 'token_expired', 'token_used'].includes(form.problem.code);
  return (
    <>
      {form.problem !== null && (
        <ProblemDisplay
          problem={form.problem}
          fieldLabels={{ new_password: t('account.reset.newPassword'), token: t('account.reset.link') }}
          focus
        >
          {linkProblem && <Link href="/reset-password">{t('account.reset.newLink')}</Link>}
        </ProblemDisplay>
      )}
      <form onSubmit={form.onSubmit} noValidate>
        <TextField
          name="new_password"
          label={t('account.reset.newPassword')}
          hint={t('account.reset.newPasswordHint')}
          type="password"
          autoComplete="new-password"
          required
          error={form.errorOf('new_password')}
        />
        <SubmitButton pending={form.pending}>{t('account.reset.submit')}</SubmitButton>
      </form>
    </>
  );
}

/** Password reset: without a token asks for the email, with one (the emailed link) sets the new password. */
export default function ResetPasswordPage() {
  const token = new URLSearchParams(useSearch()).get('token');
  return (
    <div className="narrow">
      <h1>{t('account.reset.title')}</h1>
      {token === null || token.length === 0 ? <RequestReset /> : <ChooseNewPassword token={token} />}
    </div>
  );
}
