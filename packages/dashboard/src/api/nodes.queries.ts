import { queryOptions } from '@tanstack/react-query';
import { api } from './client.js';

/** A profile's nodes; the key extends the profile's (`['profiles', id]`), so a profile refresh covers them. */
export const nodesKeys = {
  list: (profileId: string) => ['profiles', profileId, 'nodes'] as const,
};

/** Nodes report in on their own: the list is read again this often to show who is online. */
const NODES_POLL_MS = 15_000;

export const nodesQueries = {
  list: (profileId: string) =>
    queryOptions({
      queryKey: nodesKeys.list(profileId),
      queryFn: () => api.profiles.nodes.list(profileId).toArray(),
      refetchInterval: NODES_POLL_MS,
    }),
};
