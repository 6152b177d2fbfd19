import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client.js';
import { SubmitButton } from '../forms/submit-button.js';
import { TextField } from '../forms/text-field.js';
import { useApiForm } from '../forms/use-api-form.js';
import { passkeysSupported, signWithPasskey } from '../passkeys/webauthn.js';
import { problemOf } from '../problems/problem-of.js';
import { ACCOUNT_QUERY_KEY, useAccount } from './use-account.js';

/**
 * Re-authentication in place, for 403 reauth_required (changes that need a sign-in within five minutes): the
 * password (and authenticator code when asked) or a passkey signs in again, then `onConfirmed` repeats the
 * action. The page stays where it was.
 */
export function ConfirmIdentity({ onConfirmed }: { onConfirmed?: (() => void) | undefined }) {
  const account = useAccount();
  const queryClient = useQueryClient();
  const [askCode, setAskCode] = useState(false);
  const [passkeyProblem, setPasskeyProblem] = useState<string | null>(null);
  const email = account.data?.email ?? '';
  const confirmed = (signedIn: Awaited<ReturnType<typeof api.auth.login>>) => {
    queryClient.setQueryData(ACCOUNT_QUERY_KEY, signedIn);
    onConfirmed?.();
  };
  const form = useApiForm(
    (values) => {
      const code = values.optionalText('confirm_totp_code');
      return api.auth.login({
        email,
        password: values.text('password'),
        ...(code === undefined ? {} : { totp_code: code }),
      });
    },
    { onSuccess: confirmed },
  );
  if (form.problem?.code === 'second_factor_required' && !askCode) setAskCode(true);
  return (
    <section className="confirm-identity" aria-labelledby="confirm-identity-title">
      <h3 id="confirm-identity-title">Confirm it is you</h3>
      {form.problem !== null && (
        <p className="field-error" role="alert">
          {form.problem.title}
        </p>
      )}
      <form onSubmit={form.onSubmit} noValidate>
        <TextField
          name="password"
          label="Your password"
          type="password"
          autoComplete="current-password"
          error={form.errorOf('password')}
        />
        {askCode && (
          <TextField
            name="confirm_totp_code"
            label="Authenticator code"
            inputMode="numeric"
            autoComplete="one-time-code"
          />
        )}
        <div className="actions">
          <SubmitButton pending={form.pending}>Confirm</SubmitButton>
          {passkeysSupported() && (
            <button
              type="button"
              onClick={async () => {
                setPasskeyProblem(null);
                try {
                  const options = await api.auth.passkeys.authenticationOptions(email);
                  confirmed(await api.auth.passkeys.authenticate(await signWithPasskey(options)));
                } catch (error) {
                  const problem = problemOf(error);
                  setPasskeyProblem(problem.detail ?? problem.title);
                }
              }}
            >
              Confirm with a passkey
            </button>
          )}
        </div>
        {passkeyProblem !== null && (
          <p className="field-error" role="alert">
            {passkeyProblem}
          </p>
        )}
      </form>
    </section>
  );
}
