import type { TextareaHTMLAttributes } from 'react';
import { useFieldId } from './field-id.js';
import { describedBy, FieldNotes } from './field-notes.js';

/** Props of {@link TextareaField}. */
export interface TextareaFieldProps
  extends Omit<
    TextareaHTMLAttributes<HTMLTextAreaElement>,
    'id' | 'name' | 'aria-invalid' | 'aria-describedby'
  > {
  name: string;
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
}

/** A labelled multi-line text box with its hint and the API's error, as {@link TextField} is for one line. */
export function TextareaField({ name, label, hint, error, ...textarea }: TextareaFieldProps) {
  const id = useFieldId()(name);
  return (
    <div className={error === undefined ? 'field' : 'field field-invalid'}>
      <label htmlFor={id}>{label}</label>
      <FieldNotes id={id} label={label} hint={hint} error={error} />
      <textarea
        id={id}
        name={name}
        aria-invalid={error === undefined ? undefined : true}
        aria-describedby={describedBy(id, hint, error)}
        {...textarea}
      />
    </div>
  );
}
