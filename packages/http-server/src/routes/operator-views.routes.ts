import {
  AdminAuditList,
  AdminAuditQuery,
  OperatorClientErrorList,
  OperatorFeedbackList,
  type OperatorViewService,
  PageQuery,
} from '@svc/domain';
import { type AnyRoute, defineRoute } from './route-definition.js';

/** Operator views across every organisation (spec 4.10, 4.13; ROUTES.md "Operator"). */
export function operatorViewRoutes(views: OperatorViewService): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/admin/audit',
      operationId: 'listAllAuditEntries',
      summary: 'Every organisation’s audit log',
      description:
        'Newest first; filters `org_id` and `action` (repeat for several). A cursor is bound to its filters.',
      tags: ['admin'],
      auth: 'account',
      scope: 'admin',
      request: { query: AdminAuditQuery },
      responses: { 200: { description: 'Audit entries, newest first.', schema: AdminAuditList } },
      handler: async ({ query }) => ({ status: 200, body: await views.audit(query) }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/admin/client-errors',
      operationId: 'listAllClientErrors',
      summary: 'Dashboard error reports of the last 30 days',
      description: 'Every account’s reports, newest first (spec 2.10).',
      tags: ['admin'],
      auth: 'account',
      scope: 'admin',
      request: { query: PageQuery },
      responses: { 200: { description: 'Reports, newest first.', schema: OperatorClientErrorList } },
      handler: async ({ query }) => ({ status: 200, body: await views.clientErrors(query) }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/admin/feedback',
      operationId: 'listAllFeedback',
      summary: 'Dashboard feedback of the last 365 days',
      description: 'Every account’s feedback, newest first.',
      tags: ['admin'],
      auth: 'account',
      scope: 'admin',
      request: { query: PageQuery },
      responses: { 200: { description: 'Feedback, newest first.', schema: OperatorFeedbackList } },
      handler: async ({ query }) => ({ status: 200, body: await views.feedback(query) }),
    }),
  ];
}
