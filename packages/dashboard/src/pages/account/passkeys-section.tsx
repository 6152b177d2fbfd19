import type { Passkey } from '@svc/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { accountKeys } from '../../api/account.queries.js';
import { authKeys, authQueries } from '../../api/auth.queries.js';
import { api } from '../../api/client.js';
import { DateTime } from '../../components/date-time.js';
import { RecoveryCodesShown } from '../../components/recovery-codes-shown.js';
import { FormProblem } from '../../forms/form-problem.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { createPasskey, passkeysSupported } from '../../passkeys/webauthn.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';

/** One passkey's row: its name (renamed in place), when it was made and last used, and deleting it. */
function PasskeyRow({ passkey }: { passkey: Passkey }) {
  const queryClient = useQueryClient();
  const [renaming, setRenaming] = useState(false);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: authKeys.passkeys() });
  const rename = useApiForm((values) => api.auth.passkeys.rename(passkey.id, values.text('name')), {
    onSuccess: () => {
      setRenaming(false);
      refresh();
    },
  });
  const remove = useMutation({ mutationFn: () => api.auth.passkeys.delete(passkey.id), onSuccess: refresh });
  return (
    <li>
      {renaming ? (
        <form onSubmit={rename.onSubmit} noValidate aria-label={`Rename ${passkey.name}`}>
          <FormProblem form={rename} labels={{ name: 'New name' }} />
          <TextField
            name="name"
            label="New name"
            defaultValue={passkey.name}
            autoFocus
            error={rename.errorOf('name')}
          />
          <div className="actions">
            <SubmitButton pending={rename.pending}>Save name</SubmitButton>
            <button type="button" onClick={() => setRenaming(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          <span className="card-title">{passkey.name}</span> · added <DateTime value={passkey.created_at} /> ·
          last used <DateTime value={passkey.last_used_at} fallback="never" />
          <div className="actions">
            <button type="button" onClick={() => setRenaming(true)} aria-label={`Rename ${passkey.name}`}>
              Rename
            </button>
            <button
              type="button"
              className="danger"
              disabled={remove.isPending}
              onClick={() => remove.mutate()}
              aria-label={`Delete ${passkey.name}`}
            >
              Delete
            </button>
          </div>
          {remove.isError && (
            <ProblemDisplay problem={problemOf(remove.error)} afterReauth={() => remove.mutate()} />
          )}
        </>
      )}
    </li>
  );
}

/** Passkeys: list, add (the browser creates it), rename and delete. */
export function PasskeysSection() {
  const queryClient = useQueryClient();
  const passkeys = useQuery(authQueries.passkeys());
  const add = useApiForm(
    async (values) => {
      const options = await api.auth.passkeys.registrationOptions();
      const response = await createPasskey(options);
      return api.auth.passkeys.register(response, values.optionalText('passkey_name'));
    },
    {
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: authKeys.passkeys() });
        void queryClient.invalidateQueries({ queryKey: accountKeys.me() });
      },
    },
  );
  return (
    <section aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">Passkeys</h2>
      <p>
        A passkey signs you in with your device's screen lock or a security key, with no password to type or
        steal.
      </p>
      {passkeys.isError && (
        <ProblemDisplay problem={problemOf(passkeys.error)} onRetry={() => void passkeys.refetch()} />
      )}
      {passkeys.data !== undefined &&
        (passkeys.data.length === 0 ? (
          <p>You have no passkey yet.</p>
        ) : (
          <ul className="card-list" aria-label="Your passkeys">
            {passkeys.data.map((passkey) => (
              <PasskeyRow key={passkey.id} passkey={passkey} />
            ))}
          </ul>
        ))}
      {add.result?.recovery_codes !== undefined && <RecoveryCodesShown codes={add.result.recovery_codes} />}
      {add.result !== undefined && add.problem === null && (
        <p role="status" className="notice">
          Passkey {add.result.passkey.name} added.
        </p>
      )}
      {passkeysSupported() ? (
        <form onSubmit={add.onSubmit} noValidate>
          <FormProblem form={add} labels={{ name: 'Name of the passkey' }} names={{ name: 'passkey_name' }} />
          <TextField
            name="passkey_name"
            label="Name of the passkey"
            hint="To tell it apart later, for example Work laptop."
            error={add.errorOf('name')}
          />
          <SubmitButton pending={add.pending} busyText="Waiting for your device…">
            Add a passkey
          </SubmitButton>
        </form>
      ) : (
        <p>This browser cannot create passkeys. Update it, or use another browser.</p>
      )}
    </section>
  );
}
