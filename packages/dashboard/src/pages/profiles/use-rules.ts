import type { ProfileRulesRequest } from '@svc/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.js';
import { profilesInvalidations, profilesQueries, type VersionedRules } from '../../api/profiles.queries.js';

/** The profile's rules with their ETag. */
export function useRules(id: string) {
  return useQuery(profilesQueries.rules(id));
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
    onSuccess: (stored) => profilesInvalidations.rulesSaved(queryClient, id, stored),
  });
}
