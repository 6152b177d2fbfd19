import type { ProfileSchedules, Schedule, ScheduleRequest } from '@svc/sdk';
import { mutationOptions, type QueryClient, queryOptions } from '@tanstack/react-query';
import { problemOf } from '../problems/problem-of.js';
import { api } from './client.js';
import { profilesInvalidations, profilesKeys } from './profiles.queries.js';

/**
 * A profile's schedules, bedtime and assignments, with the profile's ETag they were read at (the answer carries
 * no version of its own).
 */
export interface VersionedSchedules {
  schedules: Schedule[];
  bedtime: ProfileSchedules['bedtime'];
  assignments: ProfileSchedules['assignments'];
  etag: string | undefined;
}

/** A replacement of every schedule, written over what the page read. */
export interface SchedulesReplacement {
  schedules: readonly ScheduleRequest[];
  /** What the page read: the version written over, and the bedtime and assignments carried over. */
  current: VersionedSchedules;
  /** A schedule this write renames: the bedtime and assignments naming it follow it. */
  renamed?: { from: string; to: string } | undefined;
  /** A new bedtime or new assignments this write sets (else those read are carried over). */
  policy?: Partial<Pick<VersionedSchedules, 'bedtime' | 'assignments'>> | undefined;
}

/**
 * The bedtime and assignments a replacement keeps (the API clears what a replacement leaves out): those naming
 * a renamed schedule follow it, those naming a removed one go with it (else the API refuses them, 422).
 */
export function carriedPolicy(
  current: Pick<VersionedSchedules, 'bedtime' | 'assignments'>,
  schedules: readonly ScheduleRequest[],
  renamed?: { from: string; to: string },
): Pick<VersionedSchedules, 'bedtime' | 'assignments'> {
  const follow = (name: string) => (renamed !== undefined && name === renamed.from ? renamed.to : name);
  const names = new Set(schedules.map((schedule) => schedule.name));
  const bedtime = current.bedtime === null ? null : follow(current.bedtime);
  return {
    bedtime: bedtime !== null && names.has(bedtime) ? bedtime : null,
    assignments: current.assignments
      .map((assignment) => ({ ...assignment, schedule: follow(assignment.schedule) }))
      .filter((assignment) => names.has(assignment.schedule)),
  };
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
        const answer = await api.profiles.schedules.getAll(id).withResponse();
        return { ...answer.data, etag: answer.etag };
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
      mutationFn: async ({
        schedules,
        current,
        renamed,
        policy,
      }: SchedulesReplacement): Promise<VersionedSchedules> => {
        const kept = carriedPolicy({ ...current, ...policy }, schedules, renamed);
        const answer = await api.profiles.schedules
          .replace(id, schedules, { ifMatch: current.etag, ...kept })
          .withResponse();
        return { schedules: answer.data, ...kept, etag: answer.etag };
      },
      onSuccess: (stored) => schedulesInvalidations.saved(queryClient, id, stored),
      onError: (error) => {
        if (problemOf(error).code === 'version_mismatch') schedulesInvalidations.stale(queryClient, id);
      },
    }),
};
