import {
  OperatorAccountList,
  OperatorProfileList,
  OperatorSearchQuery,
  type OperatorSearchService,
} from '@svc/domain';
import { type AnyRoute, defineRoute } from './route-definition.js';

/** Finding accounts and profiles of every organisation (ROUTES.md "Operator"). */
export function operatorSearchRoutes(search: OperatorSearchService): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/admin/accounts',
      operationId: 'searchAccounts',
      summary: 'Find accounts of any organisation',
      description:
        'Accounts whose email contains `q` (case-insensitive), or whose id or organisation id is `q`; newest first. A cursor pages through the same `q` only.',
      tags: ['admin'],
      auth: 'account',
      scope: 'admin',
      request: { query: OperatorSearchQuery },
      responses: { 200: { description: 'Matching accounts, newest first.', schema: OperatorAccountList } },
      handler: async ({ query }) => ({ status: 200, body: await search.accounts(query) }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/admin/profiles',
      operationId: 'searchProfiles',
      summary: 'Find profiles of any organisation',
      description:
        'Live profiles whose name contains `q` (case-insensitive), whose id or organisation id is `q`, or of an organisation with an account whose email contains `q`; newest first, each with its organisation owner’s email. A cursor pages through the same `q` only.',
      tags: ['admin'],
      auth: 'account',
      scope: 'admin',
      request: { query: OperatorSearchQuery },
      responses: { 200: { description: 'Matching profiles, newest first.', schema: OperatorProfileList } },
      handler: async ({ query }) => ({ status: 200, body: await search.profiles(query) }),
    }),
  ];
}
