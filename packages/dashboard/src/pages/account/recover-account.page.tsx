import { api } from '../../api/client.js';
import { FormProblem } from '../../forms/form-problem.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { t } from '../../i18n/t.js';

/** Lost second factor: emails a recovery link, opened with one of the recovery codes (spec 4.13). */
export default function RecoverAccountPage() {
  const form = useApiForm((values) => api.auth.recovery.request(values.text('email')));
  return (
    <div className="narrow">
      <h1>{t('account.recover.title')}</h1>
      {form.result !== undefined ? (
        <div role="status">
          <h2>{t('account.recover.checkEmail')}</h2>
          <p>{t('account.recover.sent')}</p>
        </div>
      ) : (
        <>
          <p>{t('account.recover.intro')}</p>
          <FormProblem form={form} labels={{ email: t('account.recover.email') }} />
          <form onSubmit={form.onSubmit} noValidate>
            <TextField
              name="email"
              label={t('account.recover.email')}
              type="email"
              autoComplete="email"
              error={form.errorOf('email')}
            />
            <SubmitButton pending={form.pending}>{t('account.recover.send')}</SubmitButton>
          </form>
        </>
      )}
    </div>
  );
}
