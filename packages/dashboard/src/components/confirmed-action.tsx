import { type ReactNode, useState } from 'react';
import { t } from '../i18n/t.js';
import { Dialog } from './dialog.js';

/** Props of {@link ConfirmedAction}. */
export interface ConfirmedActionProps {
  /** The button's text ("Remove"). */
  label: string;
  /** Its accessible name where the text alone does not say what it acts on ("Remove ads.example"). */
  ariaLabel?: string;
  /** The text of the button that does it ("Yes, remove ads.example"). */
  confirmLabel: string;
  /** Said in the confirmation ("The old URL stops at once."). */
  warning?: ReactNode;
  /** The action cannot be undone: both buttons look dangerous (default true). */
  danger?: boolean;
  /** The action is running: the button that asks is disabled. */
  pending: boolean;
  onConfirm: () => void;
  /** Kept for callers that place the button in their own row of actions; the confirmation is a dialog. */
  inline?: boolean;
}

/**
 * A button that asks before it acts: pressed, it opens an alert dialog with the confirming button and "Keep it",
 * so that one stray click never removes, revokes or replaces anything. Confirming closes the dialog and acts;
 * the caller shows the outcome beside the button, where focus returns.
 */
export function ConfirmedAction({
  label,
  ariaLabel,
  confirmLabel,
  warning,
  danger = true,
  pending,
  onConfirm,
}: ConfirmedActionProps) {
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <button
        type="button"
        className={danger ? 'danger' : undefined}
        onClick={() => setConfirming(true)}
        aria-label={ariaLabel}
        disabled={pending}
        aria-haspopup="dialog"
      >
        {label}
      </button>
      <Dialog title={ariaLabel ?? label} open={confirming} onOpenChange={setConfirming} alert>
        {warning !== undefined && <p>{warning}</p>}
        <div className="actions">
          <button
            type="button"
            className={danger ? 'danger' : 'primary'}
            onClick={() => {
              setConfirming(false);
              onConfirm();
            }}
          >
            {confirmLabel}
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            {t('common.keep')}
          </button>
        </div>
      </Dialog>
    </>
  );
}
