import { api } from '../../api/client.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { ProblemDisplay } from '../../problems/problem-display.js';

/** Asks for a new verification email (the link expired or was lost). */
export function ResendVerification() {
  const form = useApiForm((values) => api.auth.resendVerification(values.text('email')));
  if (form.result !== undefined)
    return (
      <p role="status">
        If that address has an unverified account, we sent it a new link. It works for 24 hours.
      </p>
    );
  return (
    <section aria-labelledby="resend-title">
      <h2 id="resend-title">Get a new link</h2>
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
        <SubmitButton pending={form.pending}>Send a new link</SubmitButton>
      </form>
    </section>
  );
}
