import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { api } from '../../api/client.js';
import { HOME } from '../../app/routes.js';
import { safeNext } from '../../app/safe-next.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { ACCOUNT_QUERY_KEY } from '../../session/use-account.js';

const LABELS = { email: 'Email address', password: 'Password', totp_code: 'Authenticator code' };

/** Sign in with email and password, and the authenticator code when the account has one (spec 5.5). */
export default function SignInPage() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const [askCode, setAskCode] = useState(false);
  const form = useApiForm(
    (values) => {
      const code = values.optionalText('totp_code');
      return api.auth.login({
        email: values.text('email'),
        password: values.text('password'),
        ...(code === undefined ? {} : { totp_code: code.replace(/\s+/g, '') }),
      });
    },
    {
      onSuccess: (account) => {
        queryClient.setQueryData(ACCOUNT_QUERY_KEY, account);
        navigate(safeNext(params.get('next'), HOME), { replace: true });
      },
    },
  );
  const code = form.problem?.code;
  useEffect(() => {
    if (code === 'second_factor_required' || code === 'invalid_second_factor') setAskCode(true);
  }, [code]);

  return (
    <div className="narrow">
      <h1>Sign in</h1>
      {params.get('signed_out') !== null && form.problem === null && (
        <p className="notice" role="status">
          You are signed out.
        </p>
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
      <p>
        <Link href="/reset-password">Forgotten your password?</Link>
      </p>
      <p>
        New here? <Link href="/signup">Create an account</Link>
      </p>
    </div>
  );
}
