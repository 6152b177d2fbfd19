import { useQuery } from '@tanstack/react-query';
import { Link, useSearch } from 'wouter';
import { accountQueries } from '../../api/account.queries.js';
import { api } from '../../api/client.js';
import { FormProblem } from '../../forms/form-problem.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { type ApiForm, useApiForm } from '../../forms/use-api-form.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';

const LABELS = {
  email: t('account.signUp.email'),
  password: t('account.signUp.password'),
  invite_code: t('account.signUp.inviteCode'),
};

/** Joins the waitlist when signing up is closed but a waitlist is open. */
function WaitlistForm() {
  const form = useApiForm((values) => api.waitlist.join(values.text('waitlist_email')));
  if (form.result !== undefined)
    return (
      <div role="status">
        <h2>{t('account.signUp.checkEmail')}</h2>
        <p>{t('account.waitlist.sent')}</p>
      </div>
    );
  return (
    <>
      <p>{t('account.waitlist.intro')}</p>
      <FormProblem
        form={form}
        labels={{ email: t('account.waitlist.email') }}
        names={{ email: 'waitlist_email' }}
      />
      <form onSubmit={form.onSubmit} noValidate>
        <TextField
          name="waitlist_email"
          label={t('account.waitlist.email')}
          type="email"
          autoComplete="email"
          required
          error={form.errorOf('email')}
        />
        <SubmitButton pending={form.pending}>{t('account.waitlist.submit')}</SubmitButton>
      </form>
    </>
  );
}

/** The sign-up form; `invite` (the code from the invitation link, or empty) asks for an invite code. */
function SignUpForm({ form, invite }: { form: ApiForm<unknown>; invite: string | undefined }) {
  return (
    <form onSubmit={form.onSubmit} noValidate>
      <TextField
        name="email"
        label={LABELS.email}
        type="email"
        autoComplete="email"
        required
        error={form.errorOf('email')}
      />
      <TextField
        name="password"
        label={LABELS.password}
        hint={t('account.signUp.passwordHint')}
        type="password"
        autoComplete="new-password"
        required
        error={form.errorOf('password')}
      />
      {invite !== undefined && (
        <TextField
          name="invite_code"
          label={LABELS.invite_code}
          hint={t('account.signUp.inviteCodeHint')}
          autoComplete="off"
          defaultValue={invite}
          error={form.errorOf('invite_code')}
        />
      )}
      <SubmitButton pending={form.pending} busyText={t('account.signUp.busy')}>
        {t('account.signUp.submit')}
      </SubmitButton>
    </form>
  );
}

/** Sign up in every mode the deployment runs: open, invite (code or allowlisted address), or waitlist. */
export default function SignUpPage() {
  const params = new URLSearchParams(useSearch());
  const mode = useQuery(accountQueries.signupMode());
  const form = useApiForm((values) => {
    const invite = values.optionalText('invite_code');
    return api.auth.signup({
      email: values.text('email'),
      password: values.text('password'),
      ...(invite === undefined ? {} : { invite_code: invite }),
    });
  });

  if (mode.isPending) return <p aria-busy="true">{t('common.loading')}</p>;
  if (mode.isError)
    return <ProblemDisplay problem={problemOf(mode.error)} onRetry={() => void mode.refetch()} />;
  const { mode: signupMode, waitlist } = mode.data;

  return (
    <div className="narrow">
      <h1>{t('account.signUp.title')}</h1>
      {form.result !== undefined ? (
        <div role="status">
          <h2>{t('account.signUp.checkEmail')}</h2>
          <p>{t('account.signUp.sent')}</p>
          <p>
            <Link href="/login">{t('account.signUp.goToSignIn')}</Link>
          </p>
        </div>
      ) : signupMode === 'closed' ? (
        waitlist ? (
          <>
            <p>{t('account.signUp.closedForNow')}</p>
            <WaitlistForm />
          </>
        ) : (
          <p>{t('account.signUp.closed')}</p>
        )
      ) : (
        <>
          {signupMode === 'invite' && <p>{t('account.signUp.inviteOnly')}</p>}
          {form.problem !== null && <ProblemDisplay problem={form.problem} fieldLabels={LABELS} focus />}
          <SignUpForm
            form={form}
            invite={signupMode === 'invite' ? (params.get('invite') ?? '') : undefined}
          />
          <p>
            {t('account.signUp.haveAccount')} <Link href="/login">{t('account.signUp.signIn')}</Link>
          </p>
          {signupMode === 'invite' && waitlist && (
            <details>
              <summary>{t('account.signUp.noInvitation')}</summary>
              <WaitlistForm />
            </details>
          )}
        </>
      )}
    </div>
  );
}
