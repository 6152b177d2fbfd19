import { Link, useSearch } from 'wouter';
import { api } from '../../api/client.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { ProblemDisplay } from '../../problems/problem-display.js';

/** Step one: ask for the emailed link. */
function RequestReset() {
  const form = useApiForm((values) => api.auth.requestPasswordReset(values.text('email')));
  if (form.result !== undefined)
    return (
      <div role="status">
        <h2>Check your email</h2>
        <p>
          If an account uses that address, we sent it a link to choose a new password. It works for one hour.
        </p>
      </div>
    );
  return (
    <>
      <p>Enter the email address of your account and we will send you a link to choose a new password.</p>
      {form.problem !== null && (
        <ProblemDisplay problem={form.problem} fieldLabels={{ email: 'Email address' }} focus />
      )}
      <form onSubmit={form.onSubmit} noValidate>
        <TextField
          name="email"
          label="Email address"
          type="email"
          autoComplete="email"
          required
          error={form.errorOf('email')}
        />
        <SubmitButton pending={form.pending}>Send the link</SubmitButton>
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
        <h2>Your password is changed</h2>
        <p>Every other session of your account was signed out.</p>
        <p>
          <Link href="/login">Sign in with your new password</Link>
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
          fieldLabels={{ new_password: 'New password', token: 'Link' }}
          focus
        >
          {linkProblem && <Link href="/reset-password">Ask for a new link</Link>}
        </ProblemDisplay>
      )}
      <form onSubmit={form.onSubmit} noValidate>
        <TextField
          name="new_password"
          label="New password"
          hint="12 to 128 characters."
          type="password"
          autoComplete="new-password"
          required
          error={form.errorOf('new_password')}
        />
        <SubmitButton pending={form.pending}>Change password</SubmitButton>
      </form>
    </>
  );
}

/** Password reset: without a token asks for the email, with one (the emailed link) sets the new password. */
export default function ResetPasswordPage() {
  const token = new URLSearchParams(useSearch()).get('token');
  return (
    <div className="narrow">
      <h1>Reset your password</h1>
      {token === null || token.length === 0 ? <RequestReset /> : <ChooseNewPassword token={token} />}
    </div>
  );
}
