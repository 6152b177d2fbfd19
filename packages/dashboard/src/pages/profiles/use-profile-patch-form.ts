import type { Profile, ProfilePatchRequest } from '@svc/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.js';
import { profilesInvalidations } from '../../api/profiles.queries.js';
import { useNotify } from '../../feedback/notify.js';
import type { FormValues } from '../../forms/form-values.js';
import { type ApiForm, useApiForm } from '../../forms/use-api-form.js';
import { t } from '../../i18n/t.js';

/**
 * A form that saves part of a profile with one PATCH, written against the version the page shows (If-Match),
 * so that a change someone made meanwhile is not overwritten (412 version_mismatch, shown as a problem with a
 * way to load the latest version). The answer replaces the cached profile, and the save is acknowledged in
 * the viewport, where the person is looking after pressing the button.
 */
export function useProfilePatchForm(
  profile: Profile,
  patchOf: (values: FormValues) => ProfilePatchRequest,
): ApiForm<Profile> {
  const queryClient = useQueryClient();
  const notify = useNotify();
  return useApiForm(
    (values) => api.profiles.update(profile.id, patchOf(values), { ifMatch: profile.version }),
    {
      onSuccess: (updated) => {
        profilesInvalidations.profileSaved(queryClient, updated);
        notify.success(t('profiles.form.saved'));
      },
    },
  );
}
