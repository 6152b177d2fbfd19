import {
  AnalyticsQueryParameters,
  AnalyticsShapeName,
  LogQueryParameters,
  type LogQueryService,
  ProfileId,
  QueryResult,
} from '@svc/domain';
import { z } from 'zod';
import { type AnyRoute, defineRoute } from './route-definition.js';
import { actingOrgId } from './route-principal.js';

/** Path of an analytics query. */
const AnalyticsPath = z.object({ id: ProfileId, shape: AnalyticsShapeName });

/** Problem statuses of log and analytics queries beyond the usual ones (spec 4.6, 7). */
const QUERY_ERROR_STATUSES = [429, 501, 502, 503, 504];

const ROUTING = `Routing by the profile’s log destination: \`cloud\` and \`both\` are answered by the cloud columnar store (source \`columnar\`; 501 not_implemented when this server has none); \`self-hosted\` is relayed to the profile’s node (source \`node\`; 503 node_offline with Retry-After when none is connected, node_busy, relay_unavailable; 504 node_timeout after 10 s; 502 node_error; 501 shape_unsupported for a node too old); \`none\` answers an empty result (source \`none\`).`;
const GUARDRAILS = `Guardrails (spec 8): a from..to wider than the shape allows is 422 range_too_large naming \`from\` (without \`from\` the range starts that long before \`to\`); each query costs budget units (2 per day of per-query rows, 1 per week of hourly totals, 1 per tail; refill 1,200 a minute per organisation): a query that can never fit is 422 query_too_expensive, an empty budget is 429 too_many_queries with Retry-After; at most 4 queries of an organisation run at once, a fifth waits up to 5 s, then 429 too_many_queries. A cloud query past 500 million rows or 2 GiB is 422 query_too_expensive; one running past 10 s is cancelled, 504 query_timeout.`;

/** Query logs and analytics of a profile (spec 2.11, 4.6, 8). */
export function queryLogRoutes(queries: LogQueryService): AnyRoute[] {
  const orgOf = actingOrgId;
  return [
    defineRoute({
      method: 'get',
      path: '/v1/profiles/{id}/logs',
      operationId: 'queryLogs',
      summary: 'A profile’s query logs',
      description: `Log rows newest first, columns as in the query result (spec 2.11) ending with the derived reason, reason_code, ede_code and ede_text; answer_ips is an array (type \`unknown\`). \`mode=tail\` (default) answers the latest rows; its next_cursor, sent back, answers only the rows that arrived after them (polling, never repeating or skipping rows). \`mode=search\` answers the range newest first, \`qname\` matching as a substring; next_cursor pages to older rows and is null on the last page. Filters repeat (\`status=blocked&status=error\`). ${ROUTING} ${GUARDRAILS}`,
      tags: ['logs'],
      auth: 'account',
      scope: 'logs:read',
      request: { params: z.object({ id: ProfileId }), query: LogQueryParameters },
      errorStatuses: QUERY_ERROR_STATUSES,
      responses: { 200: { description: 'The query result.', schema: QueryResult } },
      handler: async ({ principal, params, query }) => ({
        status: 200,
        body: await queries.logs(orgOf(principal), params.id, query),
        headers: { 'Cache-Control': 'no-store' },
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/profiles/{id}/analytics/{shape}',
      operationId: 'queryAnalytics',
      summary: 'An analytics aggregate of a profile’s queries',
      description: `Columns by shape: counts_by_status (status, count; one row per status, allowed, blocked, rewritten, error, or those filtered); top_domains and top_blocked (qname, count; top_blocked counts blocked queries); top_devices (device_id, device_name, count; grouped by device id, device_name the display name when set; queries without a device left out); destinations (ip, count, country, owner; allowed queries unless a status filter is given, grouped by answer address); timeline (ts, allowed, blocked, rewritten, error; one row per \`bucket\`-second bucket with queries, aligned on the Unix epoch, oldest first); top_reasons (reason_code, list_id, reason, count; blocked and rewritten queries unless filtered); top_owners (owner, count); top_pops (pop, count; limit default 10, at most 100). Top shapes order by count descending, ties by their key ascending (top_reasons by reason_code, list_id, reason), and answer at most \`limit\` rows. counts_by_status and timeline filtered by time only come from the hourly totals of every profile (source \`columnar\` whatever the destination), in whole hours: a sub-hour range or bucket reports the enclosing hours. Analytics results are whole: next_cursor is null and a cursor is 400 invalid_cursor. ${ROUTING} ${GUARDRAILS}`,
      tags: ['analytics'],
      auth: 'account',
      scope: 'analytics:read',
      request: { params: AnalyticsPath, query: AnalyticsQueryParameters },
      errorStatuses: QUERY_ERROR_STATUSES,
      responses: { 200: { description: 'The query result.', schema: QueryResult } },
      handler: async ({ principal, params, query }) => ({
        status: 200,
        body: await queries.analytics(orgOf(principal), params.id, params.shape, query),
        headers: { 'Cache-Control': 'no-store' },
      }),
    }),
  ];
}
