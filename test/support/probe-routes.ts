import {
  assertExpectedVersion,
  CursorSealer,
  DomainError,
  KeyedHash,
  PageQuery,
  pageFrom,
} from '@svc/domain';
import { type AnyRoute, defineRoute, etagOf, versionFromIfMatch } from '@svc/http-server';
import type { Container } from 'inversify';
import { z } from 'zod';

/**
 * Routes that exist only in tests: they exercise the API's conventions (idempotency, pagination, If-Match,
 * body handling) before the product routes that use them land. They are contributed to the test server only.
 */
export function probeRoutes(container: Container): AnyRoute[] {
  const sealer = new CursorSealer(container.get<KeyedHash>(KeyedHash));
  const items = Array.from({ length: 120 }, (_, index) => ({ id: index + 1, name: `item-${index + 1}` }));
  let created = 0;
  let version = 1;
  let flakyCalls = 0;
  const Widget = z.object({
    name: z.string().min(1).max(20),
    settings: z.object({ block_mode: z.enum(['nxdomain', 'refused', 'null', 'block-page']) }).optional(),
  });
  return [
    defineRoute({
      method: 'post',
      path: '/v1/probe/widgets',
      operationId: 'probeCreateWidget',
      summary: 'Create a widget (test probe)',
      tags: ['probe'],
      auth: 'none',
      idempotent: true,
      request: { body: Widget },
      responses: { 201: { description: 'Created.' } },
      handler: async ({ body, headers }) => {
        const delay = Number(headers['x-probe-delay-ms'] ?? 0);
        if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
        if (headers['x-probe-fail'] === 'yes') {
          throw new DomainError('validation_failed', 'The probe was asked to fail.', {
            fieldErrors: [{ field: 'name', message: 'asked to fail' }],
          });
        }
        created += 1;
        return {
          status: 201,
          body: { id: created, name: body.name, idempotency_key: headers['idempotency-key'] ?? null },
          headers: { Location: `/v1/probe/widgets/${created}` },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/probe/items',
      operationId: 'probeListItems',
      summary: 'List items (test probe)',
      tags: ['probe'],
      auth: 'none',
      request: { query: PageQuery },
      responses: { 200: { description: 'A page.' } },
      handler: async ({ query }) => {
        const after = query.cursor === undefined ? 0 : Number(sealer.open('probe-items', query.cursor).id);
        const rows = items.filter((item) => item.id > after).slice(0, query.limit + 1);
        const page = pageFrom(rows, query.limit, sealer, 'probe-items', (item) => ({ id: item.id }));
        return { status: 200, body: { items: page.items, next_cursor: page.nextCursor } };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/v1/probe/versioned',
      operationId: 'probePutVersioned',
      summary: 'Write a versioned resource (test probe)',
      tags: ['probe'],
      auth: 'none',
      request: { body: z.object({ value: z.string() }) },
      responses: { 200: { description: 'Written.' } },
      handler: async ({ headers }) => {
        assertExpectedVersion(versionFromIfMatch(headers['if-match']), version);
        version += 1;
        return { status: 200, body: { version }, headers: { ETag: etagOf(version) } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/probe',
      operationId: 'probeAuthWrite',
      summary: 'An unauthenticated /v1/auth write (test probe)',
      tags: ['probe'],
      auth: 'none',
      responses: { 202: { description: 'Accepted.' } },
      handler: async () => ({ status: 202, body: { status: 'accepted' } }),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/waitlist',
      operationId: 'probeWaitlist',
      summary: 'A signup surface (test probe)',
      tags: ['probe'],
      auth: 'none',
      request: { body: z.object({ email: z.email() }) },
      responses: { 202: { description: 'Accepted.' } },
      handler: async () => ({ status: 202, body: { status: 'confirmation_sent' } }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/probe/flaky',
      operationId: 'probeFlaky',
      summary: 'Answer 503 with Retry-After twice in every three calls (test probe)',
      tags: ['probe'],
      auth: 'none',
      responses: { 200: { description: 'The third call.' } },
      errorStatuses: [503],
      handler: async () => {
        flakyCalls += 1;
        if (flakyCalls % 3 !== 0) {
          throw new DomainError('relay_unavailable', 'Try again shortly.', { retryAfter: 1 });
        }
        return { status: 200, body: { calls: flakyCalls } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/probe/crash',
      operationId: 'probeCrash',
      summary: 'Fail unexpectedly (test probe)',
      tags: ['probe'],
      auth: 'none',
      responses: { 200: { description: 'Never.' } },
      handler: async () => {
        throw new Error('secret internal detail at /srv/app.js:42');
      },
    }),
  ];
}
