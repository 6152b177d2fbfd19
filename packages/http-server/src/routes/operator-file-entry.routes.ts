import { type OperatorActor, OperatorEntryQuery } from '@svc/domain';
import { z } from 'zod';
import { operatorActor } from './operator-actor.js';
import { type AnyRoute, defineRoute } from './route-definition.js';

/** Path of one operator entry (a uuid). */
const OperatorEntryPath = z.object({ id: z.uuid({ error: 'must be a uuid' }) });

/** What an operator file's entries offer the routes (OperatorBlockService, SourceBlockService). */
interface OperatorEntryService<Create, Change, List> {
  list(query: z.infer<typeof OperatorEntryQuery>): Promise<List>;
  create(request: Create, actor: OperatorActor): Promise<Change>;
  remove(id: string, actor: OperatorActor): Promise<Change>;
}

/** One kind of operator file entry as routes: its path, operation ids, schemas and documentation. */
export interface OperatorEntryRoutes<
  Create extends z.ZodType,
  Change extends z.ZodType,
  List extends z.ZodType,
> {
  /** `/v1/admin/operator-blocks`; one entry is `{path}/{id}`. */
  path: string;
  operationIds: { list: string; create: string; remove: string };
  summaries: { list: string; create: string; remove: string };
  /** What the list, a creation and a removal do; `published` ends the creation's and removal's text. */
  descriptions: { create: string; remove: string; published: string };
  schemas: { create: Create; change: Change; list: List };
  /** The answers' descriptions (`Operator blocks, newest first.`, `The created block and …`). */
  answers: { list: string; created: string; removed: string };
}

/**
 * The list, create and remove routes of an operator file's entries (spec 2.8, 2.9, 4.10; ROUTES.md
 * "Operator"): operators only (scope `admin`), creations idempotent with a Location, removals 404 when the
 * entry is unknown or removed already.
 */
export function operatorFileEntryRoutes<
  Create extends z.ZodType,
  Change extends z.ZodType,
  List extends z.ZodType,
>(
  entries: OperatorEntryRoutes<Create, Change, List>,
  service: OperatorEntryService<z.infer<Create>, z.infer<Change> & { block: { id: string } }, z.infer<List>>,
): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: entries.path,
      operationId: entries.operationIds.list,
      summary: entries.summaries.list,
      description: 'Newest first; `status` narrows to live, removed or expired entries.',
      tags: ['admin'],
      auth: 'account',
      scope: 'admin',
      request: { query: OperatorEntryQuery },
      responses: { 200: { description: entries.answers.list, schema: entries.schemas.list } },
      handler: async ({ query }) => ({ status: 200, body: await service.list(query) }),
    }),
    defineRoute({
      method: 'post',
      path: entries.path,
      operationId: entries.operationIds.create,
      summary: entries.summaries.create,
      description: `${entries.descriptions.create} ${entries.descriptions.published}`,
      tags: ['admin'],
      auth: 'account',
      scope: 'admin',
      idempotent: true,
      request: { body: entries.schemas.create },
      errorStatuses: [409],
      responses: {
        201: {
          description: entries.answers.created,
          schema: entries.schemas.change,
          headers: { Location: { description: 'The block in the list.', schema: { type: 'string' } } },
        },
      },
      handler: async ({ principal, body, clientIp, requestId }) => {
        const change = await service.create(body, operatorActor(principal, { clientIp, requestId }));
        return { status: 201, body: change, headers: { Location: `${entries.path}/${change.block.id}` } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: `${entries.path}/{id}`,
      operationId: entries.operationIds.remove,
      summary: entries.summaries.remove,
      description: `${entries.descriptions.remove} ${entries.descriptions.published}`,
      tags: ['admin'],
      auth: 'account',
      scope: 'admin',
      request: { params: OperatorEntryPath },
      errorStatuses: [404],
      responses: { 200: { description: entries.answers.removed, schema: entries.schemas.change } },
      handler: async ({ principal, params, clientIp, requestId }) => ({
        status: 200,
        body: await service.remove(params.id, operatorActor(principal, { clientIp, requestId })),
      }),
    }),
  ];
}
