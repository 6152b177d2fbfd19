import type { Passkey } from '@svc/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { accountKeys } from '../../api/account.queries.js';
import { authKeys, authQueries } from '../../api/auth.queries.js';
import { api } from '../../api/client.js';
import { ConfirmedAction } from '../../components/confirmed-action.js';
import { RecoveryCodesShown } from '../../components/recovery-codes-shown.js';
import { useNotify } from '../../feedback/notify.js';
import { FormProblem } from '../../forms/form-problem.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { formatDateTime } from '../../i18n/format.js';
import { t } from '../../i18n/t.js';
import { createPasskey, passkeysSupported } from '../../passkeys/webauthn.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';

/** Renaming one passkey in place; `onDone` closes the form (saved or cancelled). */
function RenameForm({ passkey, onDone }: { passkey: Passkey; onDone: () => void }) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const rename = useApiForm((values) => api.auth.passkeys.rename(passkey.id, values.text('name')), {
    onSuccess: (renamed) => {
      onDone();
      void queryClient.invalidateQueries({ queryKey: authKeys.passkeys() });
      notify.success(t('account.passkeys.renamed', { name: renamed.name }));
    },
  });
  const label = t('account.passkeys.newName');
  return (
    <form
      onSubmit={rename.onSubmit}
      noValidate
      aria-label={t('account.passkeys.renameNamed', { name: passkey.name })}
    >
      <FormProblem form={rename} labels={{ name: label }} />
      <TextField
        name="name"
        label={label}
        defaultValue={passkey.name}
        autoFocus
        error={rename.errorOf('name')}
      />
      <div className="actions">
        <SubmitButton pending={rename.pending}>{t('account.passkeys.saveName')}</SubmitButton>
        <button type="button" onClick={onDone}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}

/**
 * One passkey's row: its name (renamed in place), when it was made and last used, and deleting it. After a
 * rename (or its cancelling) focus returns to the Rename button; a deleted row's buttons leave with it, so
 * `onRemoved` lets the list place focus.
 */
function PasskeyRow({ passkey, onRemoved }: { passkey: Passkey; onRemoved: () => void }) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [renaming, setRenaming] = useState(false);
  const refocus = useRef(false);
  const remove = useMutation({
    mutationFn: () => api.auth.passkeys.delete(passkey.id),
    onSuccess: () => {
      onRemoved();
      void queryClient.invalidateQueries({ queryKey: authKeys.passkeys() });
      notify.success(t('account.passkeys.deleted', { name: passkey.name }));
    },
  });
  if (renaming)
    return (
      <li>
        <RenameForm
          passkey={passkey}
          onDone={() => {
            refocus.current = true;
            setRenaming(false);
          }}
        />
      </li>
    );
  return (
    <li>
      <span className="card-title">{passkey.name}</span>
      {t('account.passkeys.facts', {
        added: formatDateTime(passkey.created_at),
        lastUsed:
          passkey.last_used_at === null ? t('account.passkeys.never') : formatDateTime(passkey.last_used_at),
      })}
      <div className="actions">
        <button
          type="button"
          ref={(button) => {
            if (button !== null && refocus.current) {
              refocus.current = false;
              button.focus();
            }
          }}
          onClick={() => setRenaming(true)}
          aria-label={t('account.passkeys.renameNamed', { name: passkey.name })}
        >
          {t('account.passkeys.rename')}
        </button>
        <ConfirmedAction
          label={t('account.passkeys.delete')}
          ariaLabel={t('account.passkeys.deleteNamed', { name: passkey.name })}
          confirmLabel={t('account.passkeys.deleteYes', { name: passkey.name })}
          warning={t('account.passkeys.deleteWarning')}
          pending={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      </div>
      {remove.isError && (
        <ProblemDisplay problem={problemOf(remove.error)} afterReauth={() => remove.mutate()} />
      )}
    </li>
  );
}

/** Adding a passkey: the browser creates it, the API registers it under the name given. */
function AddPasskey() {
  const queryClient = useQueryClient();
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
  const label = t('account.passkeys.name');
  if (!passkeysSupported()) return <p>{t('account.passkeys.unsupported')}</p>;
  return (
    <>
      {/* Shown once: the codes stay on screen even when a later attempt fails. */}
      {add.result?.recovery_codes !== undefined && <RecoveryCodesShown codes={add.result.recovery_codes} />}
      {add.result !== undefined && add.problem === null && (
        <p role="status" className="notice">
          {t('account.passkeys.added', { name: add.result.passkey.name })}
        </p>
      )}
      <form onSubmit={add.onSubmit} noValidate>
        <FormProblem form={add} labels={{ name: label }} names={{ name: 'passkey_name' }} />
        <TextField
          name="passkey_name"
          label={label}
          hint={t('account.passkeys.nameHint')}
          error={add.errorOf('name')}
        />
        <SubmitButton pending={add.pending} busyText={t('account.passkeys.waiting')}>
          {t('account.passkeys.add')}
        </SubmitButton>
      </form>
    </>
  );
}

/** Passkeys: list, add (the browser creates it), rename and delete. */
export function PasskeysSection() {
  const passkeys = useQuery(authQueries.passkeys());
  // A deleted passkey's buttons leave with its row: focus goes to the section's heading, not the page's top.
  const heading = useRef<HTMLHeadingElement>(null);
  return (
    <section aria-labelledby="passkeys-title">
      <h2 id="passkeys-title" ref={heading} tabIndex={-1}>
        {t('account.passkeys.title')}
      </h2>
      <p>{t('account.passkeys.intro')}</p>
      {passkeys.isError && (
        <ProblemDisplay problem={problemOf(passkeys.error)} onRetry={() => void passkeys.refetch()} />
      )}
      {passkeys.data !== undefined &&
        (passkeys.data.length === 0 ? (
          <p>{t('account.passkeys.none')}</p>
        ) : (
          <ul className="card-list" aria-label={t('account.passkeys.list')}>
            {passkeys.data.map((passkey) => (
              <PasskeyRow key={passkey.id} passkey={passkey} onRemoved={() => heading.current?.focus()} />
            ))}
          </ul>
        ))}
      <AddPasskey />
    </section>
  );
}
