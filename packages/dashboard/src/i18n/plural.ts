/** The forms of a message that depends on a count, by the locale's plural category. */
export interface PluralForms {
  one?: string;
  two?: string;
  few?: string;
  many?: string;
  zero?: string;
  other: string;
}

/**
 * Picks the form of `forms` that `count` takes in `locale` (`Intl.PluralRules`), with `#` replaced by the count
 * formatted for that locale.
 */
export function plural(locale: string, count: number, forms: PluralForms): string {
  const category = new Intl.PluralRules(locale).select(count) as keyof PluralForms;
  const form = forms[category] ?? forms.other;
  return form.replaceAll('#', new Intl.NumberFormat(locale).format(count));
}
