import { useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { accountKeys } from '../../api/account.queries.js';
import { api } from '../../api/client.js';
import { FormProblem } from '../../forms/form-problem.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { t } from '../../i18n/t.js';

/**
 * The emailed recovery link `/login?recovery=rec_…`: one recovery code signs in, restricted until a second
 * factor is set up again, so the next page is the security page.
 */
export function RecoverySignIn({ token }: { token: string }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const form = useApiForm(
    (values) => api.auth.recovery.confirm({ token, recovery_code: values.text('recovery_code').trim() }),
    {
      onSuccess: (account) => {
        queryClient.setQueryData(accountKeys.me(), account);
        navigate('/account/security?recovered=1', { replace: true });
      },
    },
  );
  const linkProblem =
    form.problem !== null && ['invalid_token', 'token_expired', 'token_used'].includes(form.problem.code);
  return (
    <div className="narrow">
      <h1>{t('account.recover.title')}</h1>
      <p>{t('account.recover.codeIntro')}</p>
      <FormProblem form={form} labels={{ recovery_code: t('account.recover.code') }}>
        {linkProblem && <Link href="/recover-account">{t('account.recover.newLink')}</Link>}
      </FormProblem>
      <form onSubmit={form.onSubmit} noValidate>
        <TextField
          name="recovery_code"
          label={t('account.recover.code')}
          autoComplete="off"
          spellCheck={false}
          error={form.errorOf('recovery_code')}
        />
        <SubmitButton pending={form.pending}>{t('account.recover.submit')}</SubmitButton>
      </form>
    </div>
  );
}
