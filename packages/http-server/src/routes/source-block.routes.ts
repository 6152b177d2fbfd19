import {
  OperatorEntryQuery,
  SourceBlockChange,
  SourceBlockCreate,
  SourceBlockList,
  type SourceBlockService,
} from '@svc/domain';
import { operatorActor } from './operator-actor.js';
import { OperatorEntryPath } from './operator-block.routes.js';
import { type AnyRoute, defineRoute } from './route-definition.js';

const PUBLISHED =
  'The operator sources file is republished at the next version (`file_version`) and announced on `operator.changed` in the same transaction; audited in the operator’s organisation.';

/** Abusive-source blocks (spec 2.9, 3, 4.10; ROUTES.md "Operator"). */
export function sourceBlockRoutes(sources: SourceBlockService): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/admin/source-blocks',
      operationId: 'listSourceBlocks',
      summary: 'Abusive-source blocks, live and removed',
      description: 'Newest first; `status` narrows to live, removed or expired entries.',
      tags: ['admin'],
      auth: 'account',
      scope: 'admin',
      request: { query: OperatorEntryQuery },
      responses: { 200: { description: 'Source blocks, newest first.', schema: SourceBlockList } },
      handler: async ({ query }) => ({ status: 200, body: await sources.list(query) }),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/admin/source-blocks',
      operationId: 'createSourceBlock',
      summary: 'Block an abusive source prefix',
      description: `The CIDR (IPv4 or IPv6) is stored as its masked prefix; an expiry in the future is required. Audited as \`admin.source_block_created\`. ${PUBLISHED}`,
      tags: ['admin'],
      auth: 'account',
      scope: 'admin',
      idempotent: true,
      request: { body: SourceBlockCreate },
      errorStatuses: [409],
      responses: {
        201: {
          description: 'The created source block and the new file version.',
          schema: SourceBlockChange,
          headers: { Location: { description: 'The block in the list.', schema: { type: 'string' } } },
        },
      },
      handler: async ({ principal, body, clientIp, requestId }) => {
        const change = await sources.create(body, operatorActor(principal, { clientIp, requestId }));
        return {
          status: 201,
          body: change,
          headers: { Location: `/v1/admin/source-blocks/${change.block.id}` },
        };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/admin/source-blocks/{id}',
      operationId: 'removeSourceBlock',
      summary: 'Remove an abusive-source block',
      description: `Sets removed_by and removed_at and records \`admin.source_block_removed\`. An unknown or already removed block is 404. ${PUBLISHED}`,
      tags: ['admin'],
      auth: 'account',
      scope: 'admin',
      request: { params: OperatorEntryPath },
      errorStatuses: [404],
      responses: {
        200: { description: 'The removed block and the new file version.', schema: SourceBlockChange },
      },
      handler: async ({ principal, params, clientIp, requestId }) => ({
        status: 200,
        body: await sources.remove(params.id, operatorActor(principal, { clientIp, requestId })),
      }),
    }),
  ];
}
