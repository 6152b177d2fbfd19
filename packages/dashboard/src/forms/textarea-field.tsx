import type { TextareaHTMLAttributes } from 'react';
import { fieldId } from './field-id.js';

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
      <textarea
        id={id}
        name={name}
        aria-invalid={error === undefined ? undefined : true}
        aria-describedby={described.length > 0 ? described : undefined}
        {...textarea}
      />
    </div>
  );
}
