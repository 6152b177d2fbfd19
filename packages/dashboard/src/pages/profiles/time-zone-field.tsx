import { TextField } from '../../forms/text-field.js';
import { t } from '../../i18n/t.js';

/** The zone this browser runs in: what a new profile proposes (issue 38). */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Zone names to suggest: the browser's database, which the API's mostly matches; the API has the last word. */
function suggestedZones(): string[] {
  return ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];
}

/**
 * The profile's time zone, `settings.time_zone`: a text field that suggests the zone names as one types (a
 * native datalist, so screen readers and phones offer them as they do any suggestion list).
 */
export function TimeZoneField({ defaultValue, error }: { defaultValue: string; error?: string | undefined }) {
  return (
    <>
      <TextField
        name="settings.time_zone"
        label={t('profiles.settings.time_zone')}
        hint={t('profiles.settings.time_zone.hint')}
        list="time-zone-names"
        autoComplete="off"
        spellCheck={false}
        defaultValue={defaultValue}
        error={error}
      />
      <datalist id="time-zone-names">
        {suggestedZones().map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
    </>
  );
}
