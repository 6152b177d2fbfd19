/**
 * The ids a control's `aria-describedby` names: its hint's and its error's, each when shown, so that a screen
 * reader reads them out with the control.
 */
export function describedBy(
  id: string,
  hint: string | undefined,
  error: string | undefined,
): string | undefined {
  const parts = [
    hint === undefined ? undefined : `${id}-hint`,
    error === undefined ? undefined : `${id}-error`,
  ];
  const described = parts.filter((part) => part !== undefined).join(' ');
  return described.length > 0 ? described : undefined;
}

/** Props of {@link FieldNotes}. */
export interface FieldNotesProps {
  /** The control's id: the notes' ids derive from it (see {@link describedBy}). */
  id: string;
  /** The field's visible name, put before an error message that starts in lower case ("Name is required"). */
  label: string;
  hint?: string | undefined;
  /** The API's message for this field. */
  error?: string | undefined;
}

/** A field's hint and its error message in the GOV.UK pattern, the error above the control it is about. */
export function FieldNotes({ id, label, hint, error }: FieldNotesProps) {
  return (
    <>
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
    </>
  );
}
