import { queryOptions } from '@tanstack/react-query';
import { accountKeys } from './account.queries.js';
import { api } from './client.js';

/** The account's data exports (GDPR). */
export const exportsKeys = {
  list: () => [...accountKeys.me(), 'exports'] as const,
};

/** Exports listed: the latest few; older ones have expired. */
const EXPORTS_SHOWN = 10;
/** How often the list is read again while an export is being prepared. */
const PREPARING_POLL_MS = 2_000;

export const exportsQueries = {
  list: () =>
    queryOptions({
      queryKey: exportsKeys.list(),
      queryFn: () => api.auth.exports.list({ limit: EXPORTS_SHOWN }).page(),
      refetchInterval: (query) =>
        query.state.data?.items.some((item) => item.status === 'pending') ? PREPARING_POLL_MS : false,
    }),
};
