import type { InputHTMLAttributes } from 'react';
import { fieldId } from './field-id.js';

/** Props of {@link TextField}: the API field name, its visible label, an optional hint and the API's error. */
export interface TextFieldProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name' | 'aria-invalid' | 'aria-describedby'> {
  name: string;
  label: string;
  hint?: string;
  /** The API's message for this field (from {@link ApiForm.errorOf}). */
  error?: string | undefined;
}

/**
 * A labelled input in the GOV.UK pattern: label, hint, the error message above the control (read out with it
 * through aria-describedby), and `aria-invalid` while it has one.
 */
export function TextField({ name, label, hint, error, ...input }: TextFieldProps) {
  const id = fieldId(name);
  const described = [
    hint === undefined ? undefined : `${id}-hint`,
    error === undefined ? undefined : `${id}-error`,
  ]
    .filter((part) => part !== undefined)
    .join(' ');
  return (
    <div className={error === undefined ? 'field' : 'field field-invalid'}>
      <label htmlFor={id}>{label}</label>
      {hint !== undefined && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error !== undefined && (
        <p className="field-error" id={`${id}-error`}>
          <span className="visually-hidden">Error: </span>
          {/^[a-z]/.test(error) ? `${label} ${error}` : error}
        </p>
      )}
      <input
        id={id}
        name={name}
        aria-invalid={error === undefined ? undefined : true}
        aria-describedby={described.length > 0 ? described : undefined}
        {...input}
      />
    </div>
  );
}
