import type { Account } from '@svc/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { accountKeys } from '../../api/account.queries.js';
import { api } from '../../api/client.js';
import { HOME } from '../../app/home.js';
import { safeNext } from '../../app/safe-next.js';
import { DateTime } from '../../components/date-time.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { type ApiForm, useApiForm } from '../../forms/use-api-form.js';
import { t } from '../../i18n/t.js';
import { passkeysSupported, signWithPasskey } from '../../passkeys/webauthn.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { Prompt } from '../../problems/prompt.js';
import { RecoverySignIn } from './recovery-sign-in.js';

const LABELS = {
  email: t('account.signIn.email'),
  password: t('account.signIn.password'),
  totp_code: t('account.signIn.code'),
};

/** Sign in with a passkey (discoverable: no address to type), or with email, password and the code when asked. */
export default function SignInPage() {
  const params = new URLSearchParams(useSearch());
  const recovery = params.get('recovery');
  if (recovery !== null && recovery.length > 0) return <RecoverySignIn token={recovery} />;
  return (
    <PasswordOrPasskey
      next={params.get('next')}
      signedOut={params.get('signed_out') !== null}
      deletionDue={params.get('deletion_due')}
    />
  );
}

/** Signing in with a passkey (discoverable: no address to type), above the password form. */
function PasskeySignIn({ onSignedIn }: { onSignedIn: (account: Account) => void }) {
  const passkey = useMutation({
    mutationFn: async () => {
      const options = await api.auth.passkeys.authenticationOptions();
      return api.auth.passkeys.authenticate(await signWithPasskey(options));
    },
    onSuccess: onSignedIn,
  });
  return (
    <section aria-labelledby="passkey-title">
      <h2 id="passkey-title" className="visually-hidden">
        {t('account.signIn.withPasskey')}
      </h2>
      {passkey.isError && <ProblemDisplay problem={problemOf(passkey.error)} focus />}
      <button type="button" className="primary" disabled={passkey.isPending} onClick={() => passkey.mutate()}>
        {t('account.signIn.passkey')}
      </button>
      <p className="separator">{t('account.signIn.orPassword')}</p>
    </section>
  );
}

/** Why the person is on the sign-in page: they signed out, or asked for their account's deletion. */
function SignedOutNotices({ deletionDue, signedOut }: { deletionDue: string | null; signedOut: boolean }) {
  return (
    <>
      {deletionDue !== null && (
        <div className="notice" role="status">
          <p>
            {t('account.signIn.deletionDue')}{' '}
            <strong>
              <DateTime value={deletionDue} />
            </strong>
            . {t('account.signIn.deletionSignedOut')}
          </p>
          <p>{t('account.signIn.deletionUndo')}</p>
        </div>
      )}
      {signedOut && (
        <p className="notice" role="status">
          {t('account.signIn.signedOut')}
        </p>
      )}
    </>
  );
}

function PasswordOrPasskey({
  next,
  signedOut,
  deletionDue,
}: {
  next: string | null;
  signedOut: boolean;
  /** Set after the person asked for the account's deletion (which signed them out): when it is erased. */
  deletionDue: string | null;
}) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [askCode, setAskCode] = useState(false);
  const signedIn = (account: Account) => {
    queryClient.setQueryData(accountKeys.me(), account);
    // An account being deleted can do little but cancel the deletion, which its account page offers.
    navigate(account.deletion_requested_at === null ? safeNext(next, HOME) : '/account', { replace: true });
  };
  const form = useApiForm(
    (values) => {
      const code = values.optionalText('totp_code');
      return api.auth.login({
        email: values.text('email'),
        password: values.text('password'),
        ...(code === undefined ? {} : { totp_code: code.replace(/\s+/g, '') }),
      });
    },
    { onSuccess: signedIn },
  );
  const code = form.problem?.code;
  useEffect(() => {
    if (code === 'second_factor_required' || code === 'invalid_second_factor') setAskCode(true);
  }, [code]);
  // The code being asked for is the sign-in's next step, not a failure: a neutral prompt, no reference.
  const codeAsked = code === 'second_factor_required';

  return (
    <div className="narrow">
      <h1>{t('account.signIn.title')}</h1>
      {form.problem === null && <SignedOutNotices deletionDue={deletionDue} signedOut={signedOut} />}
      {passkeysSupported() && <PasskeySignIn onSignedIn={signedIn} />}
      {form.problem !== null && codeAsked && (
        <Prompt title={t('account.signIn.codeTitle')}>
          <p>{t('account.signIn.codeAdvice')}</p>
        </Prompt>
      )}
      {form.problem !== null && !codeAsked && (
        <ProblemDisplay problem={form.problem} fieldLabels={LABELS} focus />
      )}
      <form onSubmit={form.onSubmit} noValidate>
        <CredentialFields form={form} askCode={askCode} />
        <SubmitButton pending={form.pending} busyText={t('account.signIn.busy')}>
          {t('account.signIn.submit')}
        </SubmitButton>
      </form>
      <SignInLinks askCode={askCode} />
    </div>
  );
}

/** The email address, the password and, once the API asked for it, the authenticator code. */
function CredentialFields({ form, askCode }: { form: ApiForm<Account>; askCode: boolean }) {
  return (
    <>
      <TextField
        name="email"
        label={LABELS.email}
        type="email"
        autoComplete="username"
        required
        error={form.errorOf('email')}
      />
      <TextField
        name="password"
        label={LABELS.password}
        type="password"
        autoComplete="current-password"
        required
        error={form.errorOf('password')}
      />
      {askCode && (
        <TextField
          name="totp_code"
          label={LABELS.totp_code}
          hint={t('account.signIn.codeHint')}
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
          error={form.errorOf('totp_code')}
        />
      )}
    </>
  );
}

/** Where to go instead: recovery (when a code is asked for), a forgotten password, signing up. */
function SignInLinks({ askCode }: { askCode: boolean }) {
  return (
    <>
      {askCode && (
        <p>
          {t('account.signIn.lostAuthenticator')}{' '}
          <Link href="/recover-account">{t('account.signIn.recover')}</Link>
        </p>
      )}
      <p>
        <Link href="/reset-password">{t('account.signIn.forgotten')}</Link>
      </p>
      <p>
        {t('account.signIn.newHere')} <Link href="/signup">{t('account.signIn.signUp')}</Link>
      </p>
    </>
  );
}
