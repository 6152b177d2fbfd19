import type { InputHTMLAttributes } from 'react';
import { useFieldId } from './field-id.js';
import { describedBy, FieldNotes } from './field-notes.js';

/** Props of {@link CheckboxField}: the API field name, its visible label, an optional hint and the API's error. */
export interface CheckboxFieldProps
  extends Omit<
    InputHTMLAttributes<HTMLInputElement>,
    'id' | 'name' | 'type' | 'aria-invalid' | 'aria-describedby'
  > {
  name: string;
  label: string;
  hint?: string | undefined;
  /** The API's message for this field. */
  error?: string | undefined;
  /** The element id, when one API field has several boxes (a list of ids); default from the name. */
  id?: string;
}

/** A labelled checkbox with its hint and the API's error tied to it, GOV.UK style (box first, label after). */
export function CheckboxField({ name, label, hint, error, id: givenId, ...input }: CheckboxFieldProps) {
  const idOf = useFieldId();
  const id = givenId ?? idOf(name);
  return (
    <div className={error === undefined ? 'checkbox' : 'checkbox field-invalid'}>
      <input
        type="checkbox"
        id={id}
        name={name}
        aria-invalid={error === undefined ? undefined : true}
        aria-describedby={describedBy(id, hint, error)}
        {...input}
      />
      <div>
        <label htmlFor={id}>{label}</label>
        <FieldNotes id={id} label={label} hint={hint} error={error} />
      </div>
    </div>
  );
}
