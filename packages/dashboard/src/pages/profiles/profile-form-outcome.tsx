import type { Profile } from '@svc/sdk';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { UnsavedChanges } from './unsaved-changes.js';
import type { ProfilePatchForm } from './use-profile-patch-form.js';

/**
 * What a profile form says when a save fails: the problem (field errors listed and linked to their fields). A
 * stale version (412) has been read again already: the problem lists each change that was not stored beside
 * what is stored now. A save that worked is acknowledged in the viewport instead.
 */
export function ProfileFormOutcome({
  form,
  profile,
  fieldLabels,
  editedVersion,
}: {
  form: ProfilePatchForm;
  profile: Profile;
  fieldLabels: Readonly<Record<string, string>>;
  /** The values the form edits, in one string: when they differ from the refused save's, the form shows them. */
  editedVersion: (profile: Profile) => string;
}) {
  if (form.problem === null) return null;
  const refused = form.refused;
  return (
    <ProblemDisplay
      problem={form.problem}
      fieldLabels={fieldLabels}
      focus
      advice={refused === undefined ? undefined : t('profiles.form.readAgain')}
    >
      {refused !== undefined && (
        <UnsavedChanges
          refused={refused}
          latest={profile}
          labels={fieldLabels}
          formKept={editedVersion(refused.base) === editedVersion(profile)}
        />
      )}
    </ProblemDisplay>
  );
}
