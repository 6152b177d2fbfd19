import { useState } from 'react';
import { t } from '../i18n/t.js';
import { ConfirmIdentity } from '../session/confirm-identity.js';
import { Dialog } from './dialog.js';

/**
 * The container of the confirm-it-is-you prompt (403 reauth_required): a neutral modal dialog over the page, so
 * the prompt is not read as an error. The prompt's logic and its heading stay in session/confirm-identity.tsx;
 * closing the dialog leaves a button to open it again.
 */
export function ConfirmIdentityDialog({ onConfirmed }: { onConfirmed?: (() => void) | undefined }) {
  const [open, setOpen] = useState(true);
  return (
    <>
      {!open && (
        <button type="button" className="primary" onClick={() => setOpen(true)}>
          {t('problems.confirm.title')}
        </button>
      )}
      <Dialog title={t('problems.confirm.title')} open={open} onOpenChange={setOpen} titleInContent>
        <ConfirmIdentity
          onConfirmed={() => {
            setOpen(false);
            onConfirmed?.();
          }}
        />
      </Dialog>
    </>
  );
}
