import { type ReactNode, useId, useState } from 'react';
import { Switch as AriaSwitch } from 'react-aria-components';
import './components.css';

/** Props of {@link Switch}. */
export interface SwitchProps {
  /** The form field name (submitted as `on` when on), for forms read with FormValues. */
  name?: string;
  /** What it turns on or off; its accessible name. */
  label: ReactNode;
  /** Said under the label. */
  hint?: ReactNode;
  /** Controlled state. */
  checked?: boolean;
  /** Uncontrolled initial state. */
  defaultChecked?: boolean;
  onChange?: (checked: boolean) => void;
  disabled?: boolean;
}

/**
 * An on/off setting that applies at once (role switch, React Aria): Space toggles it, screen readers announce
 * "on" or "off". For a choice saved with a form's button use CheckboxField instead.
 */
export function Switch({ name, label, hint, checked, defaultChecked, onChange, disabled }: SwitchProps) {
  const hintId = useId();
  // A controlled switch shows each click at once, before its owner's state comes back: a query cache tells its
  // readers after the event, and a second quick click read from the stale prop would repeat the first intent
  // instead of undoing it. A new `checked` from the owner (stored, or rolled back) replaces what is shown.
  const [shown, setShown] = useState(checked);
  const [owned, setOwned] = useState(checked);
  if (checked !== owned) {
    setOwned(checked);
    setShown(checked);
  }
  return (
    <div className="switch-field">
      <AriaSwitch
        className="switch"
        {...(name === undefined ? {} : { name })}
        {...(shown === undefined ? {} : { isSelected: shown })}
        {...(defaultChecked === undefined ? {} : { defaultSelected: defaultChecked })}
        onChange={(next) => {
          if (checked !== undefined) setShown(next);
          onChange?.(next);
        }}
        isDisabled={disabled === true}
        {...(hint === undefined ? {} : { 'aria-describedby': hintId })}
      >
        <span className="switch-track" aria-hidden="true">
          <span className="switch-thumb" />
        </span>
        <span className="switch-label">{label}</span>
      </AriaSwitch>
      {hint !== undefined && (
        <p className="hint switch-hint" id={hintId}>
          {hint}
        </p>
      )}
    </div>
  );
}
