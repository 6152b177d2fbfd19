import { type ReactNode, useId } from 'react';
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
  return (
    <div className="switch-field">
      <AriaSwitch
        className="switch"
        {...(name === undefined ? {} : { name })}
        {...(checked === undefined ? {} : { isSelected: checked })}
        {...(defaultChecked === undefined ? {} : { defaultSelected: defaultChecked })}
        {...(onChange === undefined ? {} : { onChange })}
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
