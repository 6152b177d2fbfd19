import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { accountKeys } from '../api/account.queries.js';
import { api } from '../api/client.js';
import { SubmitButton } from '../forms/submit-button.js';
import { TextField } from '../forms/text-field.js';
import { useApiForm } from '../forms/use-api-form.js';
import { t } from '../i18n/t.js';
import { passkeysSupported, signWithPasskey } from '../passkeys/webauthn.js';
import { type DisplayProblem, problemOf } from '../problems/problem-of.js';
import { ProblemReference } from '../problems/problem-reference.js';
import { Prompt } from '../problems/prompt.js';
import { useAccount } from './use-account.js';

/** A failure of the confirmation itself (a wrong password): an error, with its reference. */
function ConfirmationFailed({ problem }: { problem: DisplayProblem }) {
  return (
    <div className="field-error" role="alert">
      <p>{problem.title}</p>
      {problem.advice !== undefined && <p>{problem.advice}</p>}
      <ProblemReference requestId={problem.requestId} />
    </div>
  );
}

/**
 * Re-authentication in place, for 403 reauth_required (changes that need a sign-in within five minutes): a
 * question, not an error, so it reads as a neutral panel. The password (and authenticator code when asked) or
 * a passkey signs in again, then `onConfirmed` repeats the action. The page stays where it was.
 */
export function ConfirmIdentity({ onConfirmed }: { onConfirmed?: (() => void) | undefined }) {
  const account = useAccount();
  const queryClient = useQueryClient();
  const [askCode, setAskCode] = useState(false);
  const [passkeyProblem, setPasskeyProblem] = useState<DisplayProblem | null>(null);
  const email = account.data?.email ?? '';
  const confirmed = (signedIn: Awaited<ReturnType<typeof api.auth.login>>) => {
    queryClient.setQueryData(accountKeys.me(), signedIn);
    onConfirmed?.();
  };
  const form = useApiForm(
    (values) => {
      const code = values.optionalText('confirm_totp_code');
      return api.auth.login({
        email,
        password: values.text('password'),
        ...(code === undefined ? {} : { totp_code: code.replace(/\s+/g, '') }),
      });
    },
    { onSuccess: confirmed },
  );
  // The code being asked for is the next step of the same question, not a failure.
  const codeAsked = form.problem?.code === 'second_factor_required';
  if (codeAsked && !askCode) setAskCode(true);
  return (
    <Prompt title={t('problems.confirm.title')}>
      <p>{t('problems.confirm.why')}</p>
      {form.problem !== null && !codeAsked && <ConfirmationFailed problem={form.problem} />}
      <form onSubmit={form.onSubmit} noValidate>
        <TextField
          name="password"
          label={t('problems.confirm.password')}
          type="password"
          autoComplete="current-password"
          error={form.errorOf('password')}
        />
        {askCode && (
          <TextField
            name="confirm_totp_code"
            label={t('problems.confirm.code')}
            hint={t('problems.confirm.codeHint')}
            inputMode="numeric"
            autoComplete="one-time-code"
            autoFocus
          />
        )}
        <div className="actions">
          <SubmitButton pending={form.pending}>{t('problems.confirm.submit')}</SubmitButton>
          {passkeysSupported() && (
            <button
              type="button"
              onClick={async () => {
                setPasskeyProblem(null);
                try {
                  const options = await api.auth.passkeys.authenticationOptions(email);
                  confirmed(await api.auth.passkeys.authenticate(await signWithPasskey(options)));
                } catch (error) {
                  setPasskeyProblem(problemOf(error));
                }
              }}
            >
              {t('problems.confirm.passkey')}
            </button>
          )}
        </div>
        {passkeyProblem !== null && <ConfirmationFailed problem={passkeyProblem} />}
      </form>
    </Prompt>
  );
}
