import { queryOptions } from '@tanstack/react-query';
import { api } from './client.js';

/** The organisation's webhook endpoints and their deliveries. */
export const webhooksKeys = {
  all: ['webhooks'] as const,
  list: () => webhooksKeys.all,
  deliveries: (id: string) => [...webhooksKeys.all, id, 'deliveries'] as const,
};

/** Endpoints listed at most (20 per organisation); deliveries shown per endpoint, newest first. */
const WEBHOOKS_SHOWN = 20;
const DELIVERIES_SHOWN = 50;
const PENDING_REFRESH_MS = 1_000;

export const webhooksQueries = {
  list: () =>
    queryOptions({
      queryKey: webhooksKeys.list(),
      queryFn: () => api.webhooks.list().toArray(WEBHOOKS_SHOWN),
    }),
  deliveries: (id: string) =>
    queryOptions({
      queryKey: webhooksKeys.deliveries(id),
      queryFn: () => api.webhooks.deliveries(id, { limit: DELIVERIES_SHOWN }).toArray(DELIVERIES_SHOWN),
      // While a delivery is on its way the list is read again, so its outcome shows without a reload.
      refetchInterval: (query) =>
        query.state.data?.some((delivery) => delivery.status === 'pending') === true
          ? PENDING_REFRESH_MS
          : false,
    }),
};
