/** Typed reads of a submitted form's values. */
export class FormValues {
  constructor(private readonly data: FormData) {}

  /** The text of control `name` as typed (empty when absent). */
  text(name: string): string {
    const value = this.data.get(name);
    return typeof value === 'string' ? value : '';
  }

  /** The text of `name`, or undefined when left empty (optional API fields). */
  optionalText(name: string): string | undefined {
    const value = this.text(name).trim();
    return value.length === 0 ? undefined : value;
  }

  /** Whether checkbox `name` is ticked. */
  checked(name: string): boolean {
    return this.data.has(name);
  }

  /** Every value of `name` (checkbox groups, multiple selects). */
  all(name: string): string[] {
    return this.data.getAll(name).filter((value): value is string => typeof value === 'string');
  }
}
