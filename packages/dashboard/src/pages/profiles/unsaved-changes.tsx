import type { Profile } from '@svc/sdk';
import { formatNumber } from '../../i18n/format.js';
import { t } from '../../i18n/t.js';
import { BLOCK_MODES, DESTINATIONS, ECS_MODES, REGION_NAMES, type Wording } from './settings-wording.js';
import type { RefusedSave } from './use-profile-patch-form.js';
import './profiles.css';

/** The settings whose values have words: shown by their words, never by the API's value. */
const WORDED: Readonly<Record<string, Readonly<Record<string, Wording>>>> = {
  'settings.block_mode': BLOCK_MODES,
  'settings.log_destination': DESTINATIONS,
  'settings.ecs': ECS_MODES,
  'settings.log_region': REGION_NAMES,
};

/** One field a refused save would have changed. */
interface UnsavedChange {
  field: string;
  entered: unknown;
  stored: unknown;
}

/** The value of dotted field `field` (`name`, `settings.retention_days`) in `profile`. */
function fieldValue(profile: Profile, field: string): unknown {
  if (field === 'name') return profile.name;
  return Object.entries(profile.settings).find(([key]) => `settings.${key}` === field)?.[1];
}

/** The fields of `refused` whose entered value differs from the one the form was showing when it was saved. */
function unsavedChanges(refused: RefusedSave, latest: Profile): UnsavedChange[] {
  const entered: [string, unknown][] = [
    ['name', refused.patch.name],
    ...Object.entries(refused.patch.settings ?? {}).map(([key, value]): [string, unknown] => [
      `settings.${key}`,
      value,
    ]),
  ];
  return entered
    .filter(([field, value]) => value !== undefined && value !== fieldValue(refused.base, field))
    .map(([field, value]) => ({ field, entered: value, stored: fieldValue(latest, field) }));
}

function shown(field: string, value: unknown): string {
  if (typeof value === 'number') return Number.isNaN(value) ? '' : formatNumber(value);
  if (typeof value === 'string') return WORDED[field]?.[value]?.label ?? value;
  return String(value);
}

/**
 * What a save refused with 412 did not store, field by field, with what is stored now, so that nothing typed is
 * lost silently; and whether the form still holds it (the stored values changed elsewhere replace it).
 */
export function UnsavedChanges({
  refused,
  latest,
  labels,
  formKept,
}: {
  refused: RefusedSave;
  latest: Profile;
  labels: Readonly<Record<string, string>>;
  formKept: boolean;
}) {
  const changes = unsavedChanges(refused, latest);
  if (changes.length === 0) return null;
  return (
    <div className="unsaved-changes">
      <p>{t('profiles.form.notSaved')}</p>
      <ul>
        {changes.map((change) => (
          <li key={change.field}>
            {t('profiles.form.notSavedField', {
              field: labels[change.field] ?? change.field,
              entered: shown(change.field, change.entered),
              stored: shown(change.field, change.stored),
            })}
          </li>
        ))}
      </ul>
      <p>{formKept ? t('profiles.form.stillInForm') : t('profiles.form.formShowsStored')}</p>
    </div>
  );
}
