import {
  OperatorBlockChange,
  OperatorBlockCreate,
  OperatorBlockList,
  type OperatorBlockService,
  OperatorEntryQuery,
} from '@svc/domain';
import { z } from 'zod';
import { operatorActor } from './operator-actor.js';
import { type AnyRoute, defineRoute } from './route-definition.js';

/** Path of one operator entry (a uuid). */
export const OperatorEntryPath = z.object({ id: z.uuid({ error: 'must be a uuid' }) });

const PUBLISHED =
  'The operator blocks file is republished at the next version (`file_version`, one more per change) and announced on the message bus subject `operator.changed` in the same transaction; the change is audited in the operator’s organisation.';

/** Operator domain blocks (spec 2.8, 3, 4.10; ROUTES.md "Operator"). */
export function operatorBlockRoutes(blocks: OperatorBlockService): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/admin/operator-blocks',
      operationId: 'listOperatorBlocks',
      summary: 'Operator domain blocks, live and removed',
      description: 'Newest first; `status` narrows to live, removed or expired entries.',
      tags: ['admin'],
      auth: 'account',
      scope: 'admin',
      request: { query: OperatorEntryQuery },
      responses: { 200: { description: 'Operator blocks, newest first.', schema: OperatorBlockList } },
      handler: async ({ query }) => ({ status: 200, body: await blocks.list(query) }),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/admin/operator-blocks',
      operationId: 'createOperatorBlock',
      summary: 'Block a pattern for every profile',
      description: `The pattern uses profile rule syntax; edges in scope answer it NXDOMAIN with EDE 15 whatever the profile. csam entries are fleet-wide (pops and jurisdictions must be empty, else 422) and their pattern reaches the audit log only as its SHA-256 digest. A live entry with the same pattern is 409 block_exists. ${PUBLISHED}`,
      tags: ['admin'],
      auth: 'account',
      scope: 'admin',
      idempotent: true,
      request: { body: OperatorBlockCreate },
      errorStatuses: [409],
      responses: {
        201: {
          description: 'The created block and the new file version.',
          schema: OperatorBlockChange,
          headers: { Location: { description: 'The block in the list.', schema: { type: 'string' } } },
        },
      },
      handler: async ({ principal, body, clientIp, requestId }) => {
        const change = await blocks.create(body, operatorActor(principal, { clientIp, requestId }));
        return {
          status: 201,
          body: change,
          headers: { Location: `/v1/admin/operator-blocks/${change.block.id}` },
        };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/admin/operator-blocks/{id}',
      operationId: 'removeOperatorBlock',
      summary: 'Remove an operator block',
      description: `Sets removed_by and removed_at. An unknown or already removed block is 404. ${PUBLISHED}`,
      tags: ['admin'],
      auth: 'account',
      scope: 'admin',
      request: { params: OperatorEntryPath },
      errorStatuses: [404],
      responses: {
        200: { description: 'The removed block and the new file version.', schema: OperatorBlockChange },
      },
      handler: async ({ principal, params, clientIp, requestId }) => ({
        status: 200,
        body: await blocks.remove(params.id, operatorActor(principal, { clientIp, requestId })),
      }),
    }),
  ];
}
