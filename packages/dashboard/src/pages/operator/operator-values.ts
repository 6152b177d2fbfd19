import type { FormValues } from '../../forms/form-values.js';

/** The items of a comma- or space-separated control (`yyz, fra`), without empties. */
export function listValue(values: FormValues, name: string): string[] {
  return values
    .text(name)
    .split(/[\s,]+/)
    .filter((part) => part !== '');
}

/**
 * A datetime-local control as RFC 3339 (UTC): undefined when left empty, the text itself when it is not a date
 * (so that the API names the problem at the field).
 */
export function instantValue(values: FormValues, name: string): string | undefined {
  const text = values.text(name).trim();
  if (text === '') return undefined;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? text : date.toISOString();
}
