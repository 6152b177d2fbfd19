import { ProfilePause, ProfilePauseRequest, type ProfileService } from '@svc/domain';
import { etagOf, versionFromIfMatch } from '../http/etag.js';
import { ProfilePath } from './profile.routes.js';
import { auditSourceOf } from './route-audit.js';
import { type AnyRoute, defineRoute } from './route-definition.js';
import { actingOrgId } from './route-principal.js';

const ETAG_HEADER = {
  ETag: { description: 'The profile version, quoted (strong ETag).', schema: { type: 'string' as const } },
};
const IF_MATCH_NOTE =
  'Send `If-Match` with the ETag you read to write only if nobody changed the profile since (412 version_mismatch otherwise; nothing changes).';

/**
 * The owner's timed pause of a profile's filtering (ROUTES.md "Beyond the spec", issue 38): a versioned write
 * of the profile like its other sub-resources, published to the edges and audited.
 */
export function profilePauseRoutes(profiles: ProfileService): AnyRoute[] {
  const orgOf = actingOrgId;
  return [
    defineRoute({
      method: 'post',
      path: '/v1/profiles/{id}/pause',
      operationId: 'pauseProfile',
      summary: 'Pause a profile’s own filtering for 1 to 1440 minutes',
      description: `Until \`paused_until\` (exclusive) the profile's own blocking is off at every edge and node: rules, lists, parental controls and security; its rewrites still answer, and operator blocks still apply. The edges end the pause by their own clocks. A new pause replaces a running one, from now (it may shorten it). Audited as \`profile.paused\`. 409 profile_suspended while an operator suspended the profile. ${IF_MATCH_NOTE}`,
      tags: ['profiles'],
      auth: 'account',
      scope: 'profiles:write',
      idempotent: true,
      request: { params: ProfilePath, body: ProfilePauseRequest },
      errorStatuses: [409, 412],
      responses: {
        200: { description: 'When the pause ends.', schema: ProfilePause, headers: ETAG_HEADER },
      },
      handler: async (context) => {
        const { principal, params, body, headers } = context;
        const record = await profiles.pause(
          orgOf(principal),
          params.id,
          body.minutes,
          auditSourceOf(context),
          versionFromIfMatch(headers['if-match']),
        );
        return {
          status: 200,
          body: { paused_until: record.pausedUntil.toISOString() },
          headers: { ETag: etagOf(record.version) },
        };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/profiles/{id}/pause',
      operationId: 'resumeProfile',
      summary: 'End a profile’s pause',
      description: `Filtering resumes at once (a new version, published). Idempotent: a profile that is not paused, or whose pause has passed, answers 204 unchanged. Audited as \`profile.resumed\` when a pause ended. ${IF_MATCH_NOTE}`,
      tags: ['profiles'],
      auth: 'account',
      scope: 'profiles:write',
      request: { params: ProfilePath },
      errorStatuses: [409, 412],
      responses: { 204: { description: 'Not paused (any more).', headers: ETAG_HEADER } },
      handler: async (context) => {
        const { principal, params, headers } = context;
        const record = await profiles.resume(
          orgOf(principal),
          params.id,
          auditSourceOf(context),
          versionFromIfMatch(headers['if-match']),
        );
        return { status: 204, headers: { ETag: etagOf(record.version) } };
      },
    }),
  ];
}
