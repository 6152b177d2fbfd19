import { queryOptions } from '@tanstack/react-query';
import { api } from './client.js';

/**
 * The catalogue's query keys: one factory per question, so a page never writes a key by hand and an
 * invalidation names exactly what it refreshes.
 */
const catalogueKeys = {
  all: ['catalogue'] as const,
  lists: () => [...catalogueKeys.all, 'lists'] as const,
  parentalCategories: () => [...catalogueKeys.all, 'parental-categories'] as const,
  parentalServices: () => [...catalogueKeys.all, 'parental-services'] as const,
};

/** How long the catalogue is taken as current: it changes when the operator rebuilds lists, not per click. */
const CATALOGUE_STALE_MS = 300_000;

/** The catalogue's questions, for `useQuery(catalogueQueries.lists())`. */
export const catalogueQueries = {
  lists: () =>
    queryOptions({
      queryKey: catalogueKeys.lists(),
      queryFn: () => api.catalogue.lists(),
      staleTime: CATALOGUE_STALE_MS,
    }),
  parentalCategories: () =>
    queryOptions({
      queryKey: catalogueKeys.parentalCategories(),
      queryFn: () => api.catalogue.parentalCategories(),
      staleTime: CATALOGUE_STALE_MS,
    }),
  parentalServices: () =>
    queryOptions({
      queryKey: catalogueKeys.parentalServices(),
      queryFn: () => api.catalogue.parentalServices({ limit: 200 }).toArray(),
      staleTime: CATALOGUE_STALE_MS,
    }),
};
