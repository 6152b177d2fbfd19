import { AuditEntryList, type AuditLogService, AuditQuery } from '@svc/domain';
import { type AnyRoute, defineRoute } from './route-definition.js';
import { actingOrgId } from './route-principal.js';

/** The organisation's audit log (spec 4.13, 6.2; ROUTES.md). */
export function auditRoutes(audit: AuditLogService): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/auth/audit',
      operationId: 'listAuditEntries',
      summary: 'The organisation’s audit log',
      description:
        'Newest first; `action` filters, once or repeated. An unknown action is 422 validation_failed.',
      tags: ['auth'],
      auth: 'account',
      scope: 'account:read',
      request: { query: AuditQuery },
      responses: { 200: { description: 'Audit entries, newest first.', schema: AuditEntryList } },
      handler: async ({ principal, query }) => ({
        status: 200,
        body: await audit.list(actingOrgId(principal), query),
      }),
    }),
  ];
}
