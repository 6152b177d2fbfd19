import type { FormValues } from './form-values.js';

/**
 * The number typed in control `name`, for an integer API field. Text that is not a number (or nothing) becomes
 * NaN, which JSON sends as null, so that the API answers with its own message for the field rather than the
 * dashboard guessing the rule.
 */
export function numberValue(values: FormValues, name: string): number {
  const text = values.text(name).trim();
  return text === '' ? Number.NaN : Number(text);
}
