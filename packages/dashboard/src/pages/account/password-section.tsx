import { api } from '../../api/client.js';
import { useNotify } from '../../feedback/notify.js';
import { FormProblem } from '../../forms/form-problem.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { t } from '../../i18n/t.js';

const LABELS = { current_password: t('account.password.current'), new_password: t('account.password.new') };

/** Changing the password; every other session is signed out (spec 4.8). */
export function PasswordSection() {
  const notify = useNotify();
  const form = useApiForm(
    (values) => {
      const current = values.text('current_password');
      return api.auth.changePassword({
        ...(current.length === 0 ? {} : { current_password: current }),
        new_password: values.text('new_password'),
      });
    },
    { onSuccess: (changed) => notify.success(t('account.password.changed', { revoked: changed.revoked })) },
  );
  return (
    <section aria-labelledby="password-title">
      <h2 id="password-title">{t('account.password.title')}</h2>
      <FormProblem form={form} labels={LABELS} />
      {form.result !== undefined && form.problem === null && (
        <p role="status" className="notice">
          {t('account.password.changed', { revoked: form.result.revoked })}
        </p>
      )}
      <form onSubmit={form.onSubmit} noValidate>
        <TextField
          name="current_password"
          label={LABELS.current_password}
          hint={t('account.password.currentHint')}
          type="password"
          autoComplete="current-password"
          error={form.errorOf('current_password')}
        />
        <TextField
          name="new_password"
          label={LABELS.new_password}
          hint={t('account.password.newHint')}
          type="password"
          autoComplete="new-password"
          error={form.errorOf('new_password')}
        />
        <SubmitButton pending={form.pending}>{t('account.password.submit')}</SubmitButton>
      </form>
    </section>
  );
}
