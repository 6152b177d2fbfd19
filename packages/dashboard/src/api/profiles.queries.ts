import type { Profile, ProfileRules } from '@svc/sdk';
import { mutationOptions, type QueryClient, queryOptions } from '@tanstack/react-query';
import { api } from './client.js';

/** A profile's rules with the ETag they were read at (the rules answer carries no version of its own). */
export interface VersionedRules {
  rules: ProfileRules;
  etag: string | undefined;
}

/** The blocklists a profile enables by id, with the profile's ETag they were read at. */
export interface VersionedLists {
  lists: number[];
  etag: string | undefined;
}

/**
 * The profiles' query keys. One profile's sub-resources extend its key (`['profiles', id, 'rules']`), so that
 * dropping a profile drops everything read about it.
 */
export const profilesKeys = {
  all: ['profiles'] as const,
  /** The organisation's profile list; `exact` when invalidated, so as not to refetch every profile. */
  list: () => profilesKeys.all,
  detail: (id: string) => [...profilesKeys.all, id] as const,
  setup: (id: string) => [...profilesKeys.detail(id), 'setup'] as const,
  rules: (id: string) => [...profilesKeys.detail(id), 'rules'] as const,
  lists: (id: string) => [...profilesKeys.detail(id), 'lists'] as const,
  devices: (id: string) => [...profilesKeys.detail(id), 'devices'] as const,
  linkedIps: (id: string) => [...profilesKeys.detail(id), 'linked-ips'] as const,
  ddnsUrl: (id: string, linkId: string) => [...profilesKeys.linkedIps(id), linkId, 'ddns'] as const,
};

/** Setup values follow from a profile's id and the deployment's endpoints, which do not change while open. */
const SETUP_STALE_MS = 300_000;

/** The longest pause the API takes (minutes). */
const MAX_PAUSE_MINUTES = 1440;

/**
 * The profile writes of the pause, for `useMutation(profilesMutations.pause(queryClient, id))`: each refreshes
 * what it changed ({@link profilesInvalidations}.pauseChanged).
 */
export const profilesMutations = {
  /** Pauses for `minutes`, clamped to what the API takes (1 to 1440). */
  pause: (queryClient: QueryClient, id: string) =>
    mutationOptions({
      mutationFn: (minutes: number) =>
        api.profiles.pause(id, Math.min(MAX_PAUSE_MINUTES, Math.max(1, Math.round(minutes)))),
      onSuccess: () => profilesInvalidations.pauseChanged(queryClient, id),
    }),
  resume: (queryClient: QueryClient, id: string) =>
    mutationOptions({
      mutationFn: () => api.profiles.resume(id),
      onSuccess: () => profilesInvalidations.pauseChanged(queryClient, id),
    }),
};

/** The profiles' questions, for `useQuery(profilesQueries.detail(id))`. */
export const profilesQueries = {
  list: () => queryOptions({ queryKey: profilesKeys.list(), queryFn: () => api.profiles.list().toArray() }),
  /** One profile; its `version` is the ETag writes send back as If-Match. */
  detail: (id: string) =>
    queryOptions({
      queryKey: profilesKeys.detail(id),
      queryFn: (): Promise<Profile> => api.profiles.get(id),
    }),
  setup: (id: string) =>
    queryOptions({
      queryKey: profilesKeys.setup(id),
      queryFn: () => api.profiles.setup(id),
      staleTime: SETUP_STALE_MS,
    }),
  rules: (id: string) =>
    queryOptions({
      queryKey: profilesKeys.rules(id),
      queryFn: async (): Promise<VersionedRules> => {
        const answer = await api.profiles.rules.get(id).withResponse();
        return { rules: answer.data, etag: answer.etag };
      },
    }),
  lists: (id: string) =>
    queryOptions({
      queryKey: profilesKeys.lists(id),
      queryFn: async (): Promise<VersionedLists> => {
        const answer = await api.profiles.lists.get(id).withResponse();
        return { lists: answer.data, etag: answer.etag };
      },
    }),
  devices: (id: string) =>
    queryOptions({
      queryKey: profilesKeys.devices(id),
      queryFn: () => api.profiles.devices.list(id, { limit: 200 }).toArray(),
    }),
  linkedIps: (id: string) =>
    queryOptions({
      queryKey: profilesKeys.linkedIps(id),
      queryFn: () => api.profiles.linkedIps.list(id).toArray(),
    }),
  /** A DDNS update URL is a credential: read once on request, kept until rotated. */
  ddnsUrl: (id: string, linkId: string, enabled: boolean) =>
    queryOptions({
      queryKey: profilesKeys.ddnsUrl(id, linkId),
      queryFn: () => api.profiles.linkedIps.ddnsUrl(id, linkId),
      enabled,
      staleTime: Number.POSITIVE_INFINITY,
    }),
};

/**
 * What each write refreshes. Every write to a profile's parts bumps the profile's version (its ETag), so the
 * profile itself is refetched; the list of profiles shows names and suspension only.
 */
export const profilesInvalidations = {
  /** After the profile itself changed (PATCH): the cache holds the answer; the list may show a new name. */
  profileSaved: (queryClient: QueryClient, saved: Profile) => {
    queryClient.setQueryData(profilesKeys.detail(saved.id), saved);
    void queryClient.invalidateQueries({ queryKey: profilesKeys.list(), exact: true });
  },
  /** After the rules were replaced: the cache holds the stored rules, and the profile's version moved on. */
  rulesSaved: (queryClient: QueryClient, id: string, stored: VersionedRules) => {
    queryClient.setQueryData(profilesKeys.rules(id), stored);
    void queryClient.invalidateQueries({ queryKey: profilesKeys.detail(id), exact: true });
  },
  /** After a write to a sub-resource (rules, lists, linked IPs): the profile's version moved on. */
  partSaved: (queryClient: QueryClient, id: string) =>
    void queryClient.invalidateQueries({ queryKey: profilesKeys.detail(id), exact: true }),
  linkedIpsChanged: (queryClient: QueryClient, id: string) => {
    void queryClient.invalidateQueries({ queryKey: profilesKeys.linkedIps(id) });
    void queryClient.invalidateQueries({ queryKey: profilesKeys.detail(id), exact: true });
  },
  /**
   * After a pause began or ended: the profile (its `paused_until` and version) is refetched, and the enabled
   * lists' ETag with it; the list of profiles too, whose badges say which are paused.
   */
  pauseChanged: (queryClient: QueryClient, id: string) => {
    void queryClient.invalidateQueries({ queryKey: profilesKeys.list(), exact: true });
    void queryClient.invalidateQueries({ queryKey: profilesKeys.detail(id), exact: true });
    void queryClient.invalidateQueries({ queryKey: profilesKeys.lists(id) });
    void queryClient.invalidateQueries({ queryKey: profilesKeys.rules(id) });
  },
  devicesChanged: (queryClient: QueryClient, id: string) =>
    void queryClient.invalidateQueries({ queryKey: profilesKeys.devices(id) }),
  /** A deleted profile: everything read about it goes, and the list is refetched. */
  profileDeleted: (queryClient: QueryClient, id: string) => {
    queryClient.removeQueries({ queryKey: profilesKeys.detail(id) });
    void queryClient.invalidateQueries({ queryKey: profilesKeys.list(), exact: true });
  },
};
