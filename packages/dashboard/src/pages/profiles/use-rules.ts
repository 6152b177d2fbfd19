import type { ProfileRules, ProfileRulesRequest } from '@svc/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.js';
import { profileKey } from './use-profile.js';

/** A profile's rules with the ETag they were read at (the rules answer carries no version of its own). */
export interface VersionedRules {
  rules: ProfileRules;
  etag: string | undefined;
}

/** Cache key of a profile's rules. */
export function rulesKey(id: string) {
  return [...profileKey(id), 'rules'] as const;
}

/** The profile's rules with their ETag. */
export function useRules(id: string) {
  return useQuery({
    queryKey: rulesKey(id),
    queryFn: async (): Promise<VersionedRules> => {
      const answer = await api.profiles.rules.get(id).withResponse();
      return { rules: answer.data, etag: answer.etag };
    },
  });
}

/**
 * Replaces every rule in one write, against the version the rules were read at (412 when someone changed the
 * profile meanwhile). The stored rules, normalised by the API, replace the cached ones.
 */
export function useReplaceRules(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ rules, etag }: { rules: ProfileRulesRequest; etag: string | undefined }) => {
      const answer = await api.profiles.rules.replace(id, rules, { ifMatch: etag }).withResponse();
      return { rules: answer.data, etag: answer.etag } satisfies VersionedRules;
    },
    onSuccess: (stored) => {
      queryClient.setQueryData(rulesKey(id), stored);
      void queryClient.invalidateQueries({ queryKey: profileKey(id), exact: true });
    },
  });
}
