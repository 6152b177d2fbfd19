import {
  Allowance,
  AllowanceCreate,
  AllowanceList,
  type ProfilePolicyService,
  type ProfileRecord,
  ProfileSchedules,
} from '@svc/domain';
import { z } from 'zod';
import { etagOf, versionFromIfMatch } from '../http/etag.js';
import { ProfilePath } from './profile.routes.js';
import { auditSourceOf } from './route-audit.js';
import { type AnyRoute, defineRoute, type RouteResult } from './route-definition.js';
import { actingAccount } from './route-principal.js';

const ETAG_HEADER = {
  ETag: { description: 'The profile version, quoted (strong ETag).', schema: { type: 'string' as const } },
};
const IF_MATCH_NOTE =
  'Send `If-Match` with the ETag you read to write only if nobody changed the profile since (412 version_mismatch otherwise; nothing changes).';

const AllowancePath = ProfilePath.extend({
  allowanceId: z.string().regex(/^[0-9a-f-]{36}$/, 'must be an allowance id'),
});

/** The schedules resource as GET and PUT answer it. */
function schedulesAnswer(record: ProfileRecord): RouteResult {
  return {
    status: 200,
    body: { schedules: record.schedules, bedtime: record.bedtime, assignments: record.scheduleAssignments },
    headers: { ETag: etagOf(record.version) },
  };
}

/**
 * Issue 38's policies of a profile (ROUTES.md "Beyond the spec", ADR 0044): its schedules with their bedtime and
 * assignments, and its timed allowances. Every write is a versioned write of the profile, published to the
 * edges and nodes.
 */
export function profilePolicyRoutes(policies: ProfilePolicyService): AnyRoute[] {
  const orgOf = (principal: Parameters<typeof actingAccount>[0]) => actingAccount(principal).orgId;
  return [
    defineRoute({
      method: 'get',
      path: '/v1/profiles/{id}/schedules',
      operationId: 'getProfileSchedules',
      summary: 'A profile’s named weekly schedules, its bedtime and what each schedule limits or lifts',
      description: 'Windows are read in the profile’s `settings.time_zone`.',
      tags: ['profiles'],
      auth: 'account',
      scope: 'profiles:read',
      request: { params: ProfilePath },
      responses: {
        200: { description: 'The schedules.', schema: ProfileSchedules, headers: ETAG_HEADER },
      },
      handler: async ({ principal, params }) =>
        schedulesAnswer(await policies.schedules(orgOf(principal), params.id)),
    }),
    defineRoute({
      method: 'put',
      path: '/v1/profiles/{id}/schedules',
      operationId: 'replaceProfileSchedules',
      summary: 'Replace the schedules, bedtime and assignments of a profile in one version bump',
      description: `Named weekly windows, read in the profile’s \`settings.time_zone\`: from \`start\` (inclusive) on each of \`days\` until \`end\` (exclusive); an end earlier than the start ends the next day, an end equal to it lasts 24 hours. Names are unique within the profile. \`bedtime\` and each assignment name one of the schedules; an assignment's service, category or list must be in the catalogues (422 validation_failed naming \`assignments.<i>.target.id\`). A body without \`bedtime\` or \`assignments\` clears them. ${IF_MATCH_NOTE}`,
      tags: ['profiles'],
      auth: 'account',
      scope: 'profiles:write',
      request: { params: ProfilePath, body: ProfileSchedules },
      errorStatuses: [409, 412],
      responses: {
        200: {
          description: 'The schedules after the change.',
          schema: ProfileSchedules,
          headers: ETAG_HEADER,
        },
      },
      handler: async ({ principal, params, body, headers }) => {
        const expected = versionFromIfMatch(headers['if-match']);
        return schedulesAnswer(await policies.replaceSchedules(orgOf(principal), params.id, body, expected));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/profiles/{id}/allowances',
      operationId: 'listProfileAllowances',
      summary: 'A profile’s timed allowances still running',
      description:
        'Soonest to end first. An allowance past its `expires_at` is never listed (nor published): it ended by itself.',
      tags: ['profiles'],
      auth: 'account',
      scope: 'profiles:read',
      request: { params: ProfilePath },
      responses: { 200: { description: 'The running allowances.', schema: AllowanceList } },
      handler: async ({ principal, params }) => ({
        status: 200,
        body: { allowances: await policies.allowances(orgOf(principal), params.id) },
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/profiles/{id}/allowances',
      operationId: 'createProfileAllowance',
      summary: 'Allow a name, or unblock a parental service, for 1 to 1440 minutes',
      description: `Exactly one of \`domain\` (allowed with its subdomains, as an allow rule) and \`service\` (a service of GET /v1/parental/services, unblocked). The edges and nodes end it by their own clocks at \`expires_at\`. At most 100 run at once (422 too_many_allowances). Audited as \`profile.allowance_created\`. 409 profile_suspended while an operator suspended the profile. ${IF_MATCH_NOTE}`,
      tags: ['profiles'],
      auth: 'account',
      scope: 'profiles:write',
      idempotent: true,
      request: { params: ProfilePath, body: AllowanceCreate },
      errorStatuses: [409, 412],
      responses: { 201: { description: 'The allowance.', schema: Allowance } },
      handler: async (context) => {
        const { principal, params, body, headers } = context;
        const allowance = await policies.allow(
          orgOf(principal),
          params.id,
          body,
          auditSourceOf(context),
          versionFromIfMatch(headers['if-match']),
        );
        return { status: 201, body: allowance };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/profiles/{id}/allowances/{allowanceId}',
      operationId: 'deleteProfileAllowance',
      summary: 'End a timed allowance now',
      description: `404 for an allowance the profile does not run (unknown, ended or expired). Audited as \`profile.allowance_ended\`. ${IF_MATCH_NOTE}`,
      tags: ['profiles'],
      auth: 'account',
      scope: 'profiles:write',
      request: { params: AllowancePath },
      errorStatuses: [409, 412],
      responses: { 204: { description: 'Ended.', headers: ETAG_HEADER } },
      handler: async (context) => {
        const { principal, params, headers } = context;
        const record = await policies.endAllowance(
          orgOf(principal),
          params.id,
          params.allowanceId,
          auditSourceOf(context),
          versionFromIfMatch(headers['if-match']),
        );
        return { status: 204, headers: { ETag: etagOf(record.version) } };
      },
    }),
  ];
}
