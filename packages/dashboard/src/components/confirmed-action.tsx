import { type ReactNode, useState } from 'react';

/** Props of {@link ConfirmedAction}. */
export interface ConfirmedActionProps {
  /** The button's text ("Remove"). */
  label: string;
  /** Its accessible name where the text alone does not say what it acts on ("Remove ads.example"). */
  ariaLabel?: string;
  /** The text of the button that does it ("Yes, remove ads.example"). */
  confirmLabel: string;
  /** Said beside the buttons while confirming ("The old URL stops at once."). */
  warning?: ReactNode;
  /** The action cannot be undone: both buttons look dangerous (default true). */
  danger?: boolean;
  /** The action is running: the confirming button is disabled. */
  pending: boolean;
  onConfirm: () => void;
  /** The buttons sit in the caller's own row of actions instead of one of their own. */
  inline?: boolean;
}

/**
 * A button that asks before it acts: pressed, it becomes the confirming button and "Keep it", so that one
 * stray click never removes, revokes or replaces anything.
 */
export function ConfirmedAction({
  label,
  ariaLabel,
  confirmLabel,
  warning,
  danger = true,
  pending,
  onConfirm,
  inline = false,
}: ConfirmedActionProps) {
  const [confirming, setConfirming] = useState(false);
  const className = danger ? 'danger' : undefined;
  if (!confirming)
    return (
      <button type="button" className={className} onClick={() => setConfirming(true)} aria-label={ariaLabel}>
        {label}
      </button>
    );
  const buttons = (
    <>
      {warning !== undefined && <span>{warning}</span>}
      <button type="button" className="danger" onClick={onConfirm} disabled={pending}>
        {confirmLabel}
      </button>
      <button type="button" onClick={() => setConfirming(false)}>
        Keep it
      </button>
    </>
  );
  return inline ? buttons : <div className="actions">{buttons}</div>;
}
