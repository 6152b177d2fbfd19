import { useQuery } from '@tanstack/react-query';
import { useParams } from 'wouter';
import { profilesKeys, profilesQueries } from '../../api/profiles.queries.js';

/** Cache key of one profile (kept for the pages of other areas that import it; see `profilesKeys.detail`). */
export function profileKey(id: string): readonly ['profiles', string] {
  return profilesKeys.detail(id);
}

/** The `:id` of the profile page being shown. */
export function useProfileId(): string {
  return useParams<{ id: string }>().id ?? '';
}

/** One profile, by id (its `version` is the ETag writes send back as If-Match). */
export function useProfile(id: string) {
  return useQuery(profilesQueries.detail(id));
}
