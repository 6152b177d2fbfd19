import type { Account } from '@svc/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { api } from '../../api/client.js';
import { HOME } from '../../app/home.js';
import { safeNext } from '../../app/safe-next.js';
import { DateTime } from '../../components/date-time.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { passkeysSupported, signWithPasskey } from '../../passkeys/webauthn.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { ACCOUNT_QUERY_KEY } from '../../session/use-account.js';
import { RecoverySignIn } from './recovery-sign-in.js';

const LABELS = { email: 'Email address', password: 'Password', totp_code: 'Authenticator code' };

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
    queryClient.setQueryData(ACCOUNT_QUERY_KEY, account);
    // An account being deleted can do little but cancel the deletion, which its account page offers.
    navigate(account.deletion_requested_at === null ? safeNext(next, HOME) : '/account', { replace: true });
  };
  const passkey = useMutation({
    mutationFn: async () => {
      const options = await api.auth.passkeys.authenticationOptions();
      return api.auth.passkeys.authenticate(await signWithPasskey(options));
    },
    onSuccess: signedIn,
  });
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

  return (
    <div className="narrow">
      <h1>Sign in</h1>
      {deletionDue !== null && form.problem === null && (
        <div className="notice" role="status">
          <p>
            Your account will be deleted on{' '}
            <strong>
              <DateTime value={deletionDue} />
            </strong>
            . You are signed out everywhere, and its tokens and nodes no longer work.
          </p>
          <p>Changed your mind? Sign in before then and choose Cancel the deletion.</p>
        </div>
      )}
      {signedOut && form.problem === null && (
        <p className="notice" role="status">
          You are signed out.
        </p>
      )}
      {passkeysSupported() && (
        <section aria-labelledby="passkey-title">
          <h2 id="passkey-title" className="visually-hidden">
            With a passkey
          </h2>
          {passkey.isError && <ProblemDisplay problem={problemOf(passkey.error)} focus />}
          <button
            type="button"
            className="primary"
            disabled={passkey.isPending}
            onClick={() => passkey.mutate()}
          >
            Sign in with a passkey
          </button>
          <p className="separator">or with your password</p>
        </section>
      )}
      {form.problem !== null && <ProblemDisplay problem={form.problem} fieldLabels={LABELS} focus />}
      <form onSubmit={form.onSubmit} noValidate>
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
            hint="The 6-digit code your authenticator app shows for svc."
            inputMode="numeric"
            autoComplete="one-time-code"
            autoFocus
            error={form.errorOf('totp_code')}
          />
        )}
        <SubmitButton pending={form.pending} busyText="Signing in…">
          Sign in
        </SubmitButton>
      </form>
      {askCode && (
        <p>
          Lost your authenticator?{' '}
          <Link href="/recover-account">Recover your account with a recovery code</Link>
        </p>
      )}
      <p>
        <Link href="/reset-password">Forgotten your password?</Link>
      </p>
      <p>
        New here? <Link href="/signup">Create an account</Link>
      </p>
    </div>
  );
}
