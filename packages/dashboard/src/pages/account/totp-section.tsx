import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { accountKeys } from '../../api/account.queries.js';
import { authKeys, authQueries } from '../../api/auth.queries.js';
import { api } from '../../api/client.js';
import { CopyButton } from '../../components/copy-button.js';
import { QrCode } from '../../components/qr-code.js';
import { RecoveryCodesShown } from '../../components/recovery-codes-shown.js';
import { FormProblem } from '../../forms/form-problem.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';

/** Groups a base32 secret in fours, as authenticator apps show it, for typing by hand. */
function grouped(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/** The authenticator app (TOTP): enrol with a QR code and a first code, or turn it off with a current code. */
export function TotpSection() {
  const queryClient = useQueryClient();
  const status = useQuery(authQueries.totp());
  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: accountKeys.me() });
    void queryClient.invalidateQueries({ queryKey: authKeys.totp() });
  };
  const start = useMutation({ mutationFn: () => api.auth.totp.start() });
  const confirm = useApiForm(
    (values) => api.auth.totp.confirm(values.text('totp_code').replace(/\s+/g, '')),
    {
      onSuccess: () => {
        disable.reset();
        changed();
      },
    },
  );
  const disable = useApiForm(
    (values) => api.auth.totp.disable(values.text('disable_code').replace(/\s+/g, '')),
    {
      onSuccess: () => {
        start.reset();
        confirm.reset();
        changed();
      },
    },
  );
  const enrolment = start.data;
  if (status.data === undefined) {
    return (
      <section aria-labelledby="totp-title">
        <h2 id="totp-title">Authenticator app</h2>
        {status.isError ? <ProblemDisplay problem={problemOf(status.error)} /> : <p>Loading…</p>}
      </section>
    );
  }
  // What the server says, unless this page has just changed it (the answer is on its way).
  const enabled =
    confirm.result !== undefined ? true : disable.result !== undefined ? false : status.data.enabled;
  return (
    <section aria-labelledby="totp-title">
      <h2 id="totp-title">Authenticator app</h2>
      {enabled && confirm.result === undefined && (
        <p>
          Your authenticator app is on: signing in with your password asks for its code. Turn it off only if
          you have another way to sign in, such as a passkey.
        </p>
      )}
      {confirm.result !== undefined ? (
        <>
          <p role="status" className="notice">
            Your authenticator app is on. Signing in with your password now asks for its code.
          </p>
          {confirm.result.recovery_codes !== undefined && (
            <RecoveryCodesShown codes={confirm.result.recovery_codes} />
          )}
        </>
      ) : enabled ? null : enrolment === undefined ? (
        <>
          <p>
            Use an app such as Aegis, 1Password or Google Authenticator for a code at each password sign-in.
          </p>
          {start.isError && (
            <ProblemDisplay problem={problemOf(start.error)} afterReauth={() => start.mutate()} />
          )}
          <button type="button" disabled={start.isPending} onClick={() => start.mutate()}>
            Set up an authenticator app
          </button>
        </>
      ) : (
        <div className="enrolment">
          <ol>
            <li>
              <p>Scan this code with your authenticator app:</p>
              <QrCode value={enrolment.otpauth_uri} label="QR code for your authenticator app" />
            </li>
            <li>
              <p>
                Or type this key into the app: <code className="secret">{grouped(enrolment.secret)}</code>{' '}
                <CopyButton text={enrolment.secret} label="Copy the key" />
              </p>
            </li>
            <li>
              <p>Enter the 6-digit code the app now shows:</p>
              <FormProblem
                form={confirm}
                labels={{ code: 'Code from the app' }}
                names={{ code: 'totp_code' }}
              />
              <form onSubmit={confirm.onSubmit} noValidate>
                <TextField
                  name="totp_code"
                  label="Code from the app"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  error={confirm.errorOf('code')}
                />
                <SubmitButton pending={confirm.pending}>Turn on</SubmitButton>
              </form>
            </li>
          </ol>
        </div>
      )}
      {disable.result !== undefined && (
        <p role="status" className="notice">
          The authenticator app is off.
        </p>
      )}
      {enabled && (
        <details>
          <summary>Turn off the authenticator app</summary>
          <FormProblem form={disable} labels={{ code: 'Current code' }} names={{ code: 'disable_code' }} />
          <form onSubmit={disable.onSubmit} noValidate>
            <TextField
              name="disable_code"
              label="Current code"
              inputMode="numeric"
              autoComplete="one-time-code"
              error={disable.errorOf('code')}
            />
            <SubmitButton pending={disable.pending}>Turn off</SubmitButton>
          </form>
        </details>
      )}
    </section>
  );
}
