import type { InputHTMLAttributes } from 'react';
import { useFieldId } from './field-id.js';
import { describedBy, FieldNotes } from './field-notes.js';

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
  const id = useFieldId()(name);
  return (
    <div className={error === undefined ? 'field' : 'field field-invalid'}>
      <label htmlFor={id}>{label}</label>
      <FieldNotes id={id} label={label} hint={hint} error={error} />
      <input
        id={id}
        name={name}
        aria-invalid={error === undefined ? undefined : true}
        aria-describedby={describedBy(id, hint, error)}
        {...input}
      />
    </div>
  );
}
