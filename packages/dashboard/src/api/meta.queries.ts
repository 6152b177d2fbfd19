import { queryOptions } from '@tanstack/react-query';
import { api } from './client.js';

/** The service's own description: its capabilities and points of presence. */
const metaKeys = {
  all: ['meta'] as const,
  overview: () => [...metaKeys.all, 'overview'] as const,
  capabilities: () => [...metaKeys.all, 'capabilities'] as const,
  pops: () => [...metaKeys.all, 'pops'] as const,
};

/** The service's description changes with a deployment, not while a page is open. */
const META_STALE_MS = 300_000;

export const metaQueries = {
  overview: () =>
    queryOptions({ queryKey: metaKeys.overview(), queryFn: () => api.meta.get(), staleTime: META_STALE_MS }),
  capabilities: () =>
    queryOptions({
      queryKey: metaKeys.capabilities(),
      queryFn: () => api.meta.capabilities(),
      staleTime: META_STALE_MS,
    }),
  pops: () =>
    queryOptions({ queryKey: metaKeys.pops(), queryFn: () => api.meta.pops(), staleTime: META_STALE_MS }),
};
