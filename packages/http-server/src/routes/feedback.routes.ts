import {
  AcceptedReport,
  type ClientErrorDeprecatedField,
  ClientErrorReport,
  ClientErrorService,
  FeedbackCreate,
  type FeedbackService,
  type Reporter,
} from '@svc/domain';
import { type Deprecation, deprecationHeaders } from '../http/deprecation.js';
import type { Principal } from '../http/principal.js';
import { type AnyRoute, defineRoute } from './route-definition.js';
import { actingAccount } from './route-principal.js';

/** Deprecation moments of the old client error fields (spec section 9 table). */
const DEPRECATED_FIELD: Record<ClientErrorDeprecatedField, Deprecation> = {
  release: { deprecatedOn: '2026-09-30', sunset: '2027-03-31' },
  route: { deprecatedOn: '2026-09-30', sunset: '2027-03-31' },
  at: { deprecatedOn: '2026-09-30', sunset: '2027-03-31' },
};

function reporterOf(principal: Principal | null): Reporter {
  const account = actingAccount(principal);
  return { accountId: account.id, orgId: account.orgId, actor: principal?.actor ?? `account:${account.id}` };
}

/** Dashboard error reports and feedback (spec 4.11, 4.13; ROUTES.md). */
export function feedbackRoutes(clientErrors: ClientErrorService, feedback: FeedbackService): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/client-errors',
      operationId: 'reportClientError',
      summary: 'Report a dashboard error',
      description:
        'Stored scrubbed (tokens, session cookies, emails, token= and password= values) for 30 days. At most 32 KiB (400 body_too_large), 10 a minute per account (429 rate_limited). The deprecated fields `release`, `route` and `at` are accepted; a request using one is answered with Deprecation and Sunset headers.',
      tags: ['meta'],
      auth: 'account',
      scope: 'account:read',
      request: { body: ClientErrorReport },
      errorStatuses: [429],
      responses: {
        202: {
          description: 'Accepted.',
          schema: AcceptedReport,
          headers: {
            Deprecation: {
              description: 'Only when a deprecated field is used: `@<unix seconds>` (RFC 9745).',
              schema: { type: 'string' },
            },
            Sunset: {
              description: 'Only when a deprecated field is used: an HTTP date (RFC 8594).',
              schema: { type: 'string' },
            },
          },
        },
      },
      handler: async ({ principal, body }) => {
        const accepted = await clientErrors.report(reporterOf(principal), body);
        const used = ClientErrorService.deprecatedFieldsOf(body).map((field) => DEPRECATED_FIELD[field]);
        return { status: 202, body: accepted, headers: deprecationHeaders(used) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/feedback',
      operationId: 'sendFeedback',
      summary: 'Send dashboard feedback',
      tags: ['meta'],
      auth: 'account',
      request: { body: FeedbackCreate },
      responses: { 202: { description: 'Accepted.', schema: AcceptedReport } },
      handler: async ({ principal, body }) => ({
        status: 202,
        body: await feedback.send(reporterOf(principal), body),
      }),
    }),
  ];
}
