import type { Profile, ProfilePatchRequest } from '@svc/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { api } from '../../api/client.js';
import { profilesInvalidations } from '../../api/profiles.queries.js';
import { useNotify } from '../../feedback/notify.js';
import type { FormValues } from '../../forms/form-values.js';
import { type ApiForm, useApiForm } from '../../forms/use-api-form.js';
import { t } from '../../i18n/t.js';
import { problemOf } from '../../problems/problem-of.js';

/** A save refused with 412: what it would have written, and the version of the profile it was written over. */
export interface RefusedSave {
  base: Profile;
  patch: ProfilePatchRequest;
}

/** {@link ApiForm} of a profile, with the save a 412 refused, so that the page can say what was not stored. */
export interface ProfilePatchForm extends ApiForm<Profile> {
  refused: RefusedSave | undefined;
}

/**
 * A form that saves part of a profile with one PATCH, written against the version the page shows (If-Match),
 * so that a change someone made meanwhile is not overwritten (412 version_mismatch). On a 412 the profile is
 * read again at once, so the page shows what is stored, and `refused` keeps what was not saved. The answer of a
 * save replaces the cached profile, and the save is acknowledged in the viewport, where the person is looking
 * after pressing the button.
 */
export function useProfilePatchForm(
  profile: Profile,
  patchOf: (values: FormValues) => ProfilePatchRequest,
): ProfilePatchForm {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const refused = useRef<RefusedSave | undefined>(undefined);
  const form = useApiForm(
    async (values) => {
      const patch = patchOf(values);
      refused.current = undefined;
      try {
        return await api.profiles.update(profile.id, patch, { ifMatch: profile.version });
      } catch (error) {
        if (problemOf(error).code === 'version_mismatch') {
          refused.current = { base: profile, patch };
          profilesInvalidations.partSaved(queryClient, profile.id);
        }
        throw error;
      }
    },
    {
      onSuccess: (updated) => {
        profilesInvalidations.profileSaved(queryClient, updated);
        notify.success(t('profiles.form.saved'));
      },
    },
  );
  return { ...form, refused: form.problem?.code === 'version_mismatch' ? refused.current : undefined };
}
