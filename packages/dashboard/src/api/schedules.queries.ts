import type { Schedule, ScheduleRequest } from '@svc/sdk';
import { mutationOptions, type QueryClient, queryOptions } from '@tanstack/react-query';
import { problemOf } from '../problems/problem-of.js';
import { api } from './client.js';
import { profilesInvalidations, profilesKeys } from './profiles.queries.js';

/** A profile's schedules with the profile's ETag they were read at (the answer carries no version of its own). */
export interface VersionedSchedules {
  schedules: Schedule[];
  etag: string | undefined;
}

/** A replacement of every schedule, written over the version the page read. */
export interface SchedulesReplacement {
  schedules: readonly ScheduleRequest[];
  etag: string | undefined;
}

/** The schedules' query key: under the profile's, so that dropping the profile drops them. */
const schedulesKeys = {
  of: (id: string) => [...profilesKeys.detail(id), 'schedules'] as const,
};

/** The schedules' question, for `useQuery(schedulesQueries.of(id))`. */
export const schedulesQueries = {
  of: (id: string) =>
    queryOptions({
      queryKey: schedulesKeys.of(id),
      queryFn: async (): Promise<VersionedSchedules> => {
        const answer = await api.profiles.schedules.get(id).withResponse();
        return { schedules: answer.data, etag: answer.etag };
      },
    }),
};

/** What a schedules write refreshes. */
const schedulesInvalidations = {
  /** The cache holds the stored schedules and their ETag; the profile's version moved on. */
  saved: (queryClient: QueryClient, id: string, stored: VersionedSchedules) => {
    queryClient.setQueryData(schedulesKeys.of(id), stored);
    profilesInvalidations.partSaved(queryClient, id);
  },
  /** A write refused as stale (412): the page reads the schedules, and the profile, again. */
  stale: (queryClient: QueryClient, id: string) => {
    void queryClient.invalidateQueries({ queryKey: schedulesKeys.of(id) });
    profilesInvalidations.partSaved(queryClient, id);
  },
};

/** The schedules' write, for `useMutation(schedulesMutations.replace(queryClient, id))`. */
export const schedulesMutations = {
  /**
   * Replaces every schedule in one write, against the version they were read at (412 version_mismatch when
   * someone changed the profile meanwhile, after which the page shows what is stored).
   */
  replace: (queryClient: QueryClient, id: string) =>
    mutationOptions({
      mutationFn: async ({ schedules, etag }: SchedulesReplacement): Promise<VersionedSchedules> => {
        const answer = await api.profiles.schedules.replace(id, schedules, { ifMatch: etag }).withResponse();
        return { schedules: answer.data, etag: answer.etag };
      },
      onSuccess: (stored) => schedulesInvalidations.saved(queryClient, id, stored),
      onError: (error) => {
        if (problemOf(error).code === 'version_mismatch') schedulesInvalidations.stale(queryClient, id);
      },
    }),
};
