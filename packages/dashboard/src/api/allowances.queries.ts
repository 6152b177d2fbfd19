import type { Allowance, AllowanceCreateRequest } from '@svc/sdk';
import { mutationOptions, type QueryClient, queryOptions } from '@tanstack/react-query';
import { api } from './client.js';
import { profilesInvalidations, profilesKeys } from './profiles.queries.js';

/** The running allowances' query key: under the profile's, so that dropping the profile drops them. */
const allowancesKeys = {
  of: (id: string) => [...profilesKeys.detail(id), 'allowances'] as const,
};

/** A profile's running allowances (issue 38), soonest to end first, for `useQuery(allowancesQueries.of(id))`. */
export const allowancesQueries = {
  of: (id: string) =>
    queryOptions({
      queryKey: allowancesKeys.of(id),
      queryFn: (): Promise<Allowance[]> => api.profiles.allowances.list(id),
    }),
};

/** After an allowance began or ended: the list, and the profile whose version moved on. */
function allowancesChanged(queryClient: QueryClient, id: string): void {
  void queryClient.invalidateQueries({ queryKey: allowancesKeys.of(id) });
  profilesInvalidations.partSaved(queryClient, id);
}

/** The allowances' writes, for `useMutation(allowancesMutations.create(queryClient, id))`. */
export const allowancesMutations = {
  /** Allows a name, or unblocks a parental service, for 1 to 1440 minutes. */
  create: (queryClient: QueryClient, id: string) =>
    mutationOptions({
      mutationFn: (request: AllowanceCreateRequest): Promise<Allowance> =>
        api.profiles.allowances.create(id, request),
      onSuccess: () => allowancesChanged(queryClient, id),
    }),
  /** Ends an allowance now (404 once it ended by itself, after which the list is read again). */
  end: (queryClient: QueryClient, id: string) =>
    mutationOptions({
      mutationFn: (allowanceId: string): Promise<void> => api.profiles.allowances.delete(id, allowanceId),
      onSettled: () => allowancesChanged(queryClient, id),
    }),
};
