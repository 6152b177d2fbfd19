import { useQuery } from '@tanstack/react-query';
import { useParams } from 'wouter';
import { profilesQueries } from '../../api/profiles.queries.js';

/** The `:id` of the profile page being shown. */
export function useProfileId(): string {
  return useParams<{ id: string }>().id ?? '';
}

/** One profile, by id (its `version` is the ETag writes send back as If-Match). */
export function useProfile(id: string) {
  return useQuery(profilesQueries.detail(id));
}
