import {
  ListReportAccepted,
  ListReportCreate,
  ListReportList,
  type ListReportService,
  PageQuery,
} from '@svc/domain';
import { ProfilePath } from './profile.routes.js';
import { type AnyRoute, defineRoute } from './route-definition.js';
import { actingAccount, actingOrgId } from './route-principal.js';

/** List reports of a profile (spec 2.6, 4.5). */
export function listReportRoutes(reports: ListReportService): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/profiles/{id}/list-reports',
      operationId: 'createListReport',
      summary: 'Report a domain a blocklist gets wrong',
      description:
        'Recorded open with the list’s catalogue version, due for triage two business days later. At most 20 reports per account in any 24 hours: beyond, 429 too_many_reports with Retry-After (seconds until the oldest of them is 24 hours old). A list id not in GET /v1/lists is 422 validation_failed naming list_id. A suspended profile refuses reports with 409 profile_suspended. The profile’s version does not change.',
      tags: ['list-reports'],
      auth: 'account',
      scope: 'profiles:write',
      idempotent: true,
      request: { params: ProfilePath, body: ListReportCreate },
      errorStatuses: [409, 429],
      responses: { 202: { description: 'The report was recorded.', schema: ListReportAccepted } },
      handler: async ({ principal, params, body }) => {
        const account = actingAccount(principal);
        const record = await reports.report(actingOrgId(principal), account.id, params.id, body);
        return { status: 202, body: { id: record.id } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/profiles/{id}/list-reports',
      operationId: 'listListReports',
      summary: 'Reports on a profile by any member of the organisation',
      tags: ['list-reports'],
      auth: 'account',
      scope: 'profiles:read',
      request: { params: ProfilePath, query: PageQuery },
      responses: { 200: { description: 'Reports, newest first.', schema: ListReportList } },
      handler: async ({ principal, params, query }) => {
        const page = await reports.list(actingOrgId(principal), params.id, query.limit, query.cursor);
        return {
          status: 200,
          body: {
            reports: page.reports.map((record) => reports.view(record)),
            next_cursor: page.next_cursor,
          },
        };
      },
    }),
  ];
}
