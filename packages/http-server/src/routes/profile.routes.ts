import {
  PageQuery,
  Profile,
  ProfileCreate,
  ProfileId,
  ProfileList,
  ProfileLists,
  ProfilePatch,
  type ProfileRecord,
  ProfileRules,
  type ProfileService,
} from '@svc/domain';
import { z } from 'zod';
import { etagOf, versionFromIfMatch } from '../http/etag.js';
import { auditSourceOf } from './route-audit.js';
import { type AnyRoute, defineRoute, type RouteResult } from './route-definition.js';
import { actingOrgId } from './route-principal.js';

const ETAG_HEADER = {
  ETag: { description: 'The profile version, quoted (strong ETag).', schema: { type: 'string' as const } },
};
const IF_MATCH_NOTE =
  'Send `If-Match` with the ETag you read to write only if nobody changed the profile since (412 version_mismatch otherwise; nothing changes).';

/** Path of one profile. */
export const ProfilePath = z.object({ id: ProfileId });

/** A profile answer: the resource with its version as the strong ETag. */
function profileAnswer(service: ProfileService, record: ProfileRecord, status = 200): RouteResult {
  return { status, body: service.view(record), headers: { ETag: etagOf(record.version) } };
}

/** Profiles (spec 4.2, ROUTES.md). */
export function profileRoutes(profiles: ProfileService): AnyRoute[] {
  const orgOf = actingOrgId;
  return [
    defineRoute({
      method: 'post',
      path: '/v1/profiles',
      operationId: 'createProfile',
      summary: 'Create a profile',
      description: 'Present fields replace the defaults; omitted sections and fields take them.',
      tags: ['profiles'],
      auth: 'account',
      scope: 'profiles:write',
      idempotent: true,
      request: { body: ProfileCreate },
      responses: {
        201: {
          description: 'The created profile.',
          schema: Profile,
          headers: {
            ...ETAG_HEADER,
            Location: { description: 'The profile’s address.', schema: { type: 'string' } },
          },
        },
      },
      handler: async ({ principal, body }) => {
        const record = await profiles.create(orgOf(principal), body);
        const answer = profileAnswer(profiles, record, 201);
        return { ...answer, headers: { ...answer.headers, Location: `/v1/profiles/${record.id}` } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/profiles',
      operationId: 'listProfiles',
      summary: 'The organisation’s profiles',
      tags: ['profiles'],
      auth: 'account',
      scope: 'profiles:read',
      request: { query: PageQuery },
      responses: { 200: { description: 'Profiles, newest first.', schema: ProfileList } },
      handler: async ({ principal, query }) => {
        const page = await profiles.list(orgOf(principal), query.limit, query.cursor);
        return {
          status: 200,
          body: {
            profiles: page.profiles.map((record) => profiles.view(record)),
            next_cursor: page.next_cursor,
          },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/profiles/{id}',
      operationId: 'getProfile',
      summary: 'One profile',
      tags: ['profiles'],
      auth: 'account',
      scope: 'profiles:read',
      request: { params: ProfilePath },
      responses: { 200: { description: 'The profile.', schema: Profile, headers: ETAG_HEADER } },
      handler: async ({ principal, params }) =>
        profileAnswer(profiles, await profiles.get(orgOf(principal), params.id)),
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/profiles/{id}',
      operationId: 'updateProfile',
      summary: 'Change a profile (JSON merge of name, security, parental and settings)',
      description: IF_MATCH_NOTE,
      tags: ['profiles'],
      auth: 'account',
      scope: 'profiles:write',
      request: { params: ProfilePath, body: ProfilePatch },
      errorStatuses: [409, 412],
      responses: {
        200: { description: 'The profile after the change.', schema: Profile, headers: ETAG_HEADER },
      },
      handler: async ({ principal, params, body, headers }) => {
        const expected = versionFromIfMatch(headers['if-match']);
        return profileAnswer(profiles, await profiles.patch(orgOf(principal), params.id, body, expected));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/profiles/{id}/rules',
      operationId: 'getProfileRules',
      summary: 'A profile’s deny, allow and rewrite rules',
      tags: ['profiles'],
      auth: 'account',
      scope: 'profiles:read',
      request: { params: ProfilePath },
      responses: {
        200: { description: 'The rules, normalised.', schema: ProfileRules, headers: ETAG_HEADER },
      },
      handler: async ({ principal, params }) => {
        const record = await profiles.get(orgOf(principal), params.id);
        return { status: 200, body: record.rules, headers: { ETag: etagOf(record.version) } };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/v1/profiles/{id}/rules',
      operationId: 'replaceProfileRules',
      summary: 'Replace every rule of a profile in one version bump',
      description: `Patterns: a bare name (the name and everything under it), \`=name\` (exactly that name) or \`*.name\` (only names under it); stored lower case in punycode without a trailing dot. 422 too_many_rules beyond the plan's limit. ${IF_MATCH_NOTE}`,
      tags: ['profiles'],
      auth: 'account',
      scope: 'profiles:write',
      request: { params: ProfilePath, body: ProfileRules },
      errorStatuses: [409, 412],
      responses: {
        200: { description: 'The rules after the change.', schema: ProfileRules, headers: ETAG_HEADER },
      },
      handler: async ({ principal, params, body, headers }) => {
        const expected = versionFromIfMatch(headers['if-match']);
        const record = await profiles.replaceRules(orgOf(principal), params.id, body, expected);
        return { status: 200, body: record.rules, headers: { ETag: etagOf(record.version) } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/profiles/{id}/lists',
      operationId: 'getProfileLists',
      summary: 'Blocklists a profile enables by id',
      tags: ['profiles'],
      auth: 'account',
      scope: 'profiles:read',
      request: { params: ProfilePath },
      responses: { 200: { description: 'Enabled list ids.', schema: ProfileLists, headers: ETAG_HEADER } },
      handler: async ({ principal, params }) => {
        const record = await profiles.get(orgOf(principal), params.id);
        return { status: 200, body: { lists: record.lists }, headers: { ETag: etagOf(record.version) } };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/v1/profiles/{id}/lists',
      operationId: 'replaceProfileLists',
      summary: 'Set the blocklists a profile enables by id',
      description: `422 unknown_list names ids that are not in GET /v1/lists. ${IF_MATCH_NOTE}`,
      tags: ['profiles'],
      auth: 'account',
      scope: 'profiles:write',
      request: { params: ProfilePath, body: ProfileLists },
      errorStatuses: [409, 412],
      responses: {
        200: {
          description: 'Enabled list ids after the change.',
          schema: ProfileLists,
          headers: ETAG_HEADER,
        },
      },
      handler: async ({ principal, params, body, headers }) => {
        const expected = versionFromIfMatch(headers['if-match']);
        const record = await profiles.replaceLists(orgOf(principal), params.id, body.lists, expected);
        return { status: 200, body: { lists: record.lists }, headers: { ETag: etagOf(record.version) } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/profiles/{id}',
      operationId: 'deleteProfile',
      summary: 'Delete a profile',
      description: `${IF_MATCH_NOTE} The edge receives a tombstone. A profile with enrolled nodes is 409 profile_not_empty: revoke them first.`,
      tags: ['profiles'],
      auth: 'account',
      scope: 'profiles:write',
      request: { params: ProfilePath },
      errorStatuses: [409, 412],
      responses: { 204: { description: 'Deleted.' } },
      handler: async (context) => {
        const { principal, params, headers } = context;
        await profiles.delete(
          orgOf(principal),
          params.id,
          versionFromIfMatch(headers['if-match']),
          auditSourceOf(context),
        );
        return { status: 204 };
      },
    }),
  ];
}
