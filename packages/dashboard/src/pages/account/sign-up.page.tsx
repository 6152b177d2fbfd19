import { useQuery } from '@tanstack/react-query';
import { Link, useSearch } from 'wouter';
import { accountQueries } from '../../api/account.queries.js';
import { api } from '../../api/client.js';
import { FormProblem } from '../../forms/form-problem.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';

const LABELS = { email: 'Email address', password: 'Password', invite_code: 'Invite code' };

/** Joins the waitlist when signing up is closed but a waitlist is open. */
function WaitlistForm() {
  const form = useApiForm((values) => api.waitlist.join(values.text('waitlist_email')));
  if (form.result !== undefined)
    return (
      <div role="status">
        <h2>Check your email</h2>
        <p>If the address can join, we sent it a link to confirm your place on the waitlist.</p>
      </div>
    );
  return (
    <>
      <p>Leave your address to join the waitlist: we will email you when you can sign up.</p>
      <FormProblem
        form={form}
        labels={{ email: 'Email address for the waitlist' }}
        names={{ email: 'waitlist_email' }}
      />
      <form onSubmit={form.onSubmit} noValidate>
        <TextField
          name="waitlist_email"
          label="Email address for the waitlist"
          type="email"
          autoComplete="email"
          required
          error={form.errorOf('email')}
        />
        <SubmitButton pending={form.pending}>Join the waitlist</SubmitButton>
      </form>
    </>
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

  if (mode.isPending) return <p aria-busy="true">Loading…</p>;
  if (mode.isError)
    return <ProblemDisplay problem={problemOf(mode.error)} onRetry={() => void mode.refetch()} />;
  const { mode: signupMode, waitlist } = mode.data;

  return (
    <div className="narrow">
      <h1>Create an account</h1>
      {form.result !== undefined ? (
        <div role="status">
          <h2>Check your email</h2>
          <p>
            We sent a link to verify your address. Open it within 24 hours to finish. If you already have an
            account, the email says so instead.
          </p>
          <p>
            <Link href="/login">Go to sign in</Link>
          </p>
        </div>
      ) : signupMode === 'closed' ? (
        waitlist ? (
          <>
            <p>Signing up is closed for now.</p>
            <WaitlistForm />
          </>
        ) : (
          <p>Signing up is closed. This service is not taking new accounts now.</p>
        )
      ) : (
        <>
          {signupMode === 'invite' && (
            <p>
              Signing up needs an invitation: enter the invite code you were sent, or use an address the
              operator allowed.
            </p>
          )}
          {form.problem !== null && <ProblemDisplay problem={form.problem} fieldLabels={LABELS} focus />}
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
              hint="12 to 128 characters. A few unrelated words make a strong, memorable password."
              type="password"
              autoComplete="new-password"
              required
              error={form.errorOf('password')}
            />
            {signupMode === 'invite' && (
              <TextField
                name="invite_code"
                label={LABELS.invite_code}
                hint="Leave it empty if the operator allowed your address."
                autoComplete="off"
                defaultValue={params.get('invite') ?? ''}
                error={form.errorOf('invite_code')}
              />
            )}
            <SubmitButton pending={form.pending} busyText="Creating your account…">
              Create account
            </SubmitButton>
          </form>
          <p>
            Already have an account? <Link href="/login">Sign in</Link>
          </p>
          {signupMode === 'invite' && waitlist && (
            <details>
              <summary>No invitation? Join the waitlist</summary>
              <WaitlistForm />
            </details>
          )}
        </>
      )}
    </div>
  );
}
