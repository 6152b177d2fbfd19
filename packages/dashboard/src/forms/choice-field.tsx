import { useFieldId } from './field-id.js';
import { describedBy, FieldNotes } from './field-notes.js';

/** One choice of a {@link ChoiceField}. */
export interface Choice {
  value: string;
  label: string;
  hint?: string | undefined;
  /** Why this deployment does not offer the choice (from GET /v1/capabilities); the radio is disabled. */
  unavailable?: string | undefined;
}

/** Props of {@link ChoiceField}. */
export interface ChoiceFieldProps {
  /** The API field name (dotted), also the radios' form name. */
  name: string;
  legend: string;
  hint?: string | undefined;
  choices: readonly Choice[];
  defaultValue: string;
  /** The API's message for this field. */
  error?: string | undefined;
}

/**
 * A radio group in a fieldset whose legend names it. The first radio carries the field's id, so that the
 * problem summary's link for this field lands on the group. Choices the deployment does not offer stay
 * visible, disabled, with the server's reason.
 */
export function ChoiceField({ name, legend, hint, choices, defaultValue, error }: ChoiceFieldProps) {
  const id = useFieldId()(name);
  return (
    <fieldset
      className={error === undefined ? 'field' : 'field field-invalid'}
      aria-describedby={describedBy(id, hint, error)}
    >
      <legend>{legend}</legend>
      <FieldNotes id={id} label={legend} hint={hint} error={error} />
      {choices.map((choice, index) => {
        const choiceId = index === 0 ? id : `${id}-${choice.value.replace(/[^A-Za-z0-9_-]/g, '-')}`;
        const note = choice.unavailable ?? choice.hint;
        return (
          <div className="checkbox" key={choice.value}>
            <input
              type="radio"
              id={choiceId}
              name={name}
              value={choice.value}
              defaultChecked={choice.value === defaultValue}
              disabled={choice.unavailable !== undefined && choice.value !== defaultValue}
              aria-describedby={note === undefined ? undefined : `${choiceId}-note`}
            />
            <div>
              <label htmlFor={choiceId}>{choice.label}</label>
              {note !== undefined && (
                <p className="hint" id={`${choiceId}-note`}>
                  {choice.unavailable === undefined ? note : `Not available here: ${note}.`}
                </p>
              )}
            </div>
          </div>
        );
      })}
    </fieldset>
  );
}
