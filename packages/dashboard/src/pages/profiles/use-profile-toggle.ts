import type { Profile } from '@svc/sdk';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../../api/client.js';
import { profilesInvalidations, profilesKeys, type VersionedLists } from '../../api/profiles.queries.js';
import { useNotify } from '../../feedback/notify.js';
import { changeOptimistically, type Intent, type OptimisticResource } from './optimistic-writes.js';

/** What a toggle changes in a profile: some fields of its sections, merged by the API (PATCH). */
export interface ProfileToggleChange {
  security?: Partial<Profile['security']>;
  parental?: Partial<Profile['parental']>;
  settings?: Partial<Profile['settings']>;
}

function combine(earlier: ProfileToggleChange, later: ProfileToggleChange): ProfileToggleChange {
  return {
    security: { ...earlier.security, ...later.security },
    parental: { ...earlier.parental, ...later.parental },
    settings: { ...earlier.settings, ...later.settings },
  };
}

function apply(profile: Profile, change: ProfileToggleChange): Profile {
  return {
    ...profile,
    security: { ...profile.security, ...change.security },
    parental: { ...profile.parental, ...change.parental },
    settings: { ...profile.settings, ...change.settings },
  };
}

/** Only the sections a change touches go in the PATCH: the others are none of this write's business. */
function patchOf(change: ProfileToggleChange): ProfileToggleChange {
  return Object.fromEntries(
    Object.entries(change).filter(([, section]) => section !== undefined && Object.keys(section).length > 0),
  );
}

function profileResource(
  queryClient: QueryClient,
  id: string,
): OptimisticResource<Profile, ProfileToggleChange> {
  return {
    key: profilesKeys.detail(id),
    combine,
    apply,
    send: (change, base) => api.profiles.update(id, patchOf(change), { ifMatch: base.version }),
    saved: (stored) => {
      profilesInvalidations.profileSaved(queryClient, stored);
      // The enabled lists are read with the profile's ETag: keep it current, or their next write is refused.
      queryClient.setQueryData<VersionedLists>(profilesKeys.lists(id), (lists) =>
        lists === undefined ? lists : { ...lists, etag: `"${stored.version}"` },
      );
    },
  };
}

/**
 * A toggle of profile `id` that applies at once: the page shows the change immediately, the PATCH follows with
 * If-Match, and the outcome is announced without moving the focus (a refused change is undone and explained).
 * `toggle({ security: { nrd: true } }, 'Block newly registered domains', 'Block newly registered domains: on.')`.
 */
export function useProfileToggle(id: string) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  return useCallback(
    (change: ProfileToggleChange, what: string, done: string) =>
      changeOptimistically(queryClient, profileResource(queryClient, id), { change, what, done }, notify),
    [queryClient, notify, id],
  );
}

function listsResource(queryClient: QueryClient, id: string): OptimisticResource<VersionedLists, number[]> {
  return {
    key: profilesKeys.lists(id),
    combine: (_earlier, later) => later,
    apply: (state, lists) => ({ ...state, lists }),
    send: async (lists, base) => {
      const answer = await api.profiles.lists.replace(id, lists, { ifMatch: base.etag }).withResponse();
      return { lists: answer.data, etag: answer.etag };
    },
    saved: () => profilesInvalidations.partSaved(queryClient, id),
  };
}

/** The profile's enabled blocklists, switched one at a time with the same guarantees as {@link useProfileToggle}. */
export function useListsToggle(id: string) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  return useCallback(
    (intent: Intent<number[]>) =>
      changeOptimistically(queryClient, listsResource(queryClient, id), intent, notify),
    [queryClient, notify, id],
  );
}
