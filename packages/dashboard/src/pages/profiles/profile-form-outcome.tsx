import type { Profile } from '@svc/sdk';
import { useQueryClient } from '@tanstack/react-query';
import type { ApiForm } from '../../forms/use-api-form.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { profileKey } from './use-profile.js';

/**
 * What a profile form says after a save: the problem (field errors listed and linked to their fields; a
 * stale version offers to load the latest), or that the change is saved and live.
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
  if (form.problem !== null)
    return (
      <ProblemDisplay problem={form.problem} fieldLabels={fieldLabels} focus>
        {form.problem.code === 'version_mismatch' && (
          <button
            type="button"
            onClick={() => {
              form.reset();
              void queryClient.invalidateQueries({ queryKey: profileKey(profile.id) });
            }}
          >
            Load the latest version
          </button>
        )}
      </ProblemDisplay>
    );
  if (form.result !== undefined)
    return (
      <p className="notice" role="status">
        Saved. The resolvers use the change within seconds (version {form.result.version}).
      </p>
    );
  return null;
}
