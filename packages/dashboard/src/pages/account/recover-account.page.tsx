import { api } from '../../api/client.js';
import { FormProblem } from '../../forms/form-problem.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { useApiForm } from '../../forms/use-api-form.js';

/** Lost second factor: emails a recovery link, opened with one of the recovery codes (spec 4.13). */
export default function RecoverAccountPage() {
  const form = useApiForm((values) => api.auth.recovery.request(values.text('email')));
  return (
    <div className="narrow">
      <h1>Recover your account</h1>
      {form.result !== undefined ? (
        <div role="status">
          <h2>Check your email</h2>
          <p>
            If an account with a second factor uses that address, we sent it a link. Open it and enter one of
            your recovery codes.
          </p>
        </div>
      ) : (
        <>
          <p>
            Lost your authenticator or passkey? We will email you a link; with one of your recovery codes it
            signs you in.
          </p>
          <FormProblem form={form} labels={{ email: 'Email address' }} />
          <form onSubmit={form.onSubmit} noValidate>
            <TextField
              name="email"
              label="Email address"
              type="email"
              autoComplete="email"
              error={form.errorOf('email')}
            />
            <SubmitButton pending={form.pending}>Send the recovery link</SubmitButton>
          </form>
        </>
      )}
    </div>
  );
}
