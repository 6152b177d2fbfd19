import type { Profile } from '@svc/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { profilesKeys } from '../../api/profiles.queries.js';
import type { ApiForm } from '../../forms/use-api-form.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';

/**
 * What a profile form says when a save fails: the problem (field errors listed and linked to their fields; a
 * stale version offers to load the latest). A save that worked is acknowledged in the viewport instead.
 */
export function ProfileFormOutcome({
  form,
  profile,
  fieldLabels,
}: {
  form: ApiForm<Profile>;
  profile: Profile;
  fieldLabels: Readonly<Record<string, string>>;
}) {
  const queryClient = useQueryClient();
  if (form.problem === null) return null;
  return (
    <ProblemDisplay problem={form.problem} fieldLabels={fieldLabels} focus>
      {form.problem.code === 'version_mismatch' && (
        <button
          type="button"
          onClick={() => {
            form.reset();
            void queryClient.invalidateQueries({ queryKey: profilesKeys.detail(profile.id) });
          }}
        >
          {t('profiles.form.loadLatest')}
        </button>
      )}
    </ProblemDisplay>
  );
}
