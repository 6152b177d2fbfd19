import { createContext, useContext } from 'react';

/**
 * A prefix for the field ids of one form, for pages that show the same form several times (one decision form
 * per list report): without it their controls share ids, and a label's `for` names another card's control.
 */
export const FieldIdScope = createContext('');

/** The element id of the control for API field `name` (`settings.retention_days` → `field-settings-retention_days`). */
export function fieldId(name: string, scope = ''): string {
  return `field-${scope}${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

/** {@link fieldId} within the enclosing {@link FieldIdScope}. */
export function useFieldId(): (name: string) => string {
  const scope = useContext(FieldIdScope);
  return (name) => fieldId(name, scope);
}
