/** The element id of the control for API field `name` (`settings.retention_days` → `field-settings-retention_days`). */
export function fieldId(name: string): string {
  return `field-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}
