import {
  BLOCKLIST_CATALOGUE,
  BlocklistCatalogue,
  blocklistCatalogue,
  type CursorSealer,
  type ListPipelineService,
  listParentalServices,
  PARENTAL_CATEGORY_CATALOGUE,
  PageQuery,
  ParentalCategoryCatalogue,
  ParentalServiceList,
} from '@svc/domain';
import { type AnyRoute, defineRoute, type SuccessResponse } from './route-definition.js';

/** The catalogues change with a release or a list refresh (at most hourly): clients may keep them five minutes. */
const CACHE_CONTROL = 'public, max-age=300';
const cacheHeaders: SuccessResponse['headers'] = {
  'Cache-Control': { description: '`public, max-age=300`', schema: { type: 'string' } },
};

/** The blocklist and parental catalogues (spec 4.7, 4.12; ROUTES.md): public, cacheable, data from the repository. */
export function catalogueRoutes(cursors: CursorSealer, pipeline: ListPipelineService): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/lists',
      operationId: 'listBlocklists',
      summary: 'Blocklist catalogue',
      description:
        'Every blocklist with the profile setting it backs (empty for a list enabled by id), the credit its sources’ licences require, its version in force (its newest compilation’s, from a refresh or `svc lists import`) with its entries, digest and build time, and its sources with their format and what the compiler found (entries, last change, last fetch and why it failed or was refused).',
      tags: ['catalogue'],
      auth: 'none',
      responses: {
        200: {
          description: 'The whole catalogue, sorted by list id; cacheable for five minutes.',
          schema: BlocklistCatalogue,
          headers: cacheHeaders,
        },
      },
      handler: async () => {
        const [states, versions] = await Promise.all([pipeline.sourceStates(), pipeline.currentVersions()]);
        return {
          status: 200,
          body: blocklistCatalogue(BLOCKLIST_CATALOGUE, states, versions),
          headers: { 'Cache-Control': CACHE_CONTROL },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/parental/services',
      operationId: 'listParentalServices',
      summary: 'Parental services catalogue',
      description:
        'Services a profile can block by id (parental.services), in list id order; retired ones omitted.',
      tags: ['catalogue'],
      auth: 'none',
      request: { query: PageQuery },
      responses: {
        200: {
          description:
            'One page of services; next_cursor is null on the last page. Cacheable for five minutes.',
          schema: ParentalServiceList,
          headers: cacheHeaders,
        },
      },
      handler: async ({ query }) => ({
        status: 200,
        body: listParentalServices(query, cursors),
        headers: { 'Cache-Control': CACHE_CONTROL },
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/parental/categories',
      operationId: 'listParentalCategories',
      summary: 'Parental categories catalogue',
      description: 'Categories a profile can block (parental.categories), sorted by list id.',
      tags: ['catalogue'],
      auth: 'none',
      responses: {
        200: {
          description: 'Every category; cacheable for five minutes.',
          schema: ParentalCategoryCatalogue,
          headers: cacheHeaders,
        },
      },
      handler: async () => ({
        status: 200,
        body: PARENTAL_CATEGORY_CATALOGUE,
        headers: { 'Cache-Control': CACHE_CONTROL },
      }),
    }),
  ];
}
