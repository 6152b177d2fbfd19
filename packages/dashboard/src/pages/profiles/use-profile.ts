import type { Profile } from '@svc/sdk';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'wouter';
import { api } from '../../api/client.js';

/** Cache key of one profile; its sub-resources extend it (`['profiles', id, 'rules']`). */
export function profileKey(id: string): readonly ['profiles', string] {
  return ['profiles', id];
}

/** The `:id` of the profile page being shown. */
export function useProfileId(): string {
  return useParams<{ id: string }>().id ?? '';
}

/** One profile, by id (its `version` is the ETag writes send back as If-Match). */
export function useProfile(id: string) {
  return useQuery({ queryKey: profileKey(id), queryFn: (): Promise<Profile> => api.profiles.get(id) });
}
