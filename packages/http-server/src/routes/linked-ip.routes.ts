import {
  DdnsUpdate,
  DdnsUpdateUrl,
  LinkedIp,
  LinkedIpCreate,
  LinkedIpList,
  type LinkedIpService,
  PageQuery,
  ProfileId,
} from '@svc/domain';
import { z } from 'zod';
import { versionFromIfMatch } from '../http/etag.js';
import { ProfilePath } from './profile.routes.js';
import { type AnyRoute, defineRoute } from './route-definition.js';
import { actingAccount, actingOrgId } from './route-principal.js';

/** Path of one linked IP of a profile (spec 4.4: linkId is a uuid). */
const LinkedIpPath = z.object({ id: ProfileId, linkId: z.uuid({ error: 'must be a uuid' }) });
/** Path of a DDNS update: the token is the credential, so anything that is not a live token is 404. */
const DdnsTokenPath = z.object({
  token: z.string().meta({ description: 'The token of an update URL from GET …/linked-ips/{linkId}/ddns.' }),
});

const IF_MATCH_NOTE =
  'A profile write: bumps the profile’s version by one and republishes it to the edge. Send `If-Match` with the profile’s ETag to write only if nobody changed it since (412 version_mismatch otherwise).';
const NO_STORE = { 'Cache-Control': 'no-store' };

/** Linked IPv4 addresses and their DDNS update URLs (spec 1.5, 4.4, 4.13; ROUTES.md). */
export function linkedIpRoutes(linkedIps: LinkedIpService): AnyRoute[] {
  const orgOf = actingOrgId;
  const base = (profileId: string) => `/v1/profiles/${profileId}/linked-ips`;
  return [
    defineRoute({
      method: 'get',
      path: '/v1/profiles/{id}/linked-ips',
      operationId: 'listLinkedIps',
      summary: 'A profile’s linked IPv4 addresses',
      tags: ['linked-ips'],
      auth: 'account',
      scope: 'profiles:read',
      request: { params: ProfilePath, query: PageQuery },
      responses: { 200: { description: 'Linked IPs, newest first.', schema: LinkedIpList } },
      handler: async ({ principal, params, query }) => {
        const page = await linkedIps.list(orgOf(principal), params.id, query.limit, query.cursor);
        return {
          status: 200,
          body: {
            linked_ips: page.linked_ips.map((record) => linkedIps.view(record)),
            next_cursor: page.next_cursor,
          },
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/profiles/{id}/linked-ips',
      operationId: 'createLinkedIp',
      summary: 'Link an IPv4 address, or create an empty DDNS slot',
      description: `Body \`{ip}\` links that IPv4 address; \`{ddns: true}\` creates an empty slot whose DDNS update URL sets it. A link of the caller’s own address (the client as the API sees it, behind its trusted proxies only) is \`active\`: published to the edge and identifying that address’s Do53 queries. Any other address is a \`pending\` claim, answered with its \`proof_url\` (the link’s DDNS update URL): it is never published, blocks nobody, and becomes active once that URL is called from the address, or expires after 24 hours. An address actively linked to any profile already is 409 ip_conflict (a pending claim never is); an account whose address is not verified is 403 email_unverified; a private, loopback or otherwise reserved address is 422 naming \`ip\` (only public unicast addresses are linked); beyond the caps of the deployment (links per profile, and per account over its profiles, DDNS slots included) 422 too_many_linked_ips. ${IF_MATCH_NOTE}`,
      tags: ['linked-ips'],
      auth: 'account',
      scope: 'profiles:write',
      idempotent: true,
      request: { params: ProfilePath, body: LinkedIpCreate },
      errorStatuses: [409, 412],
      responses: {
        201: {
          description: 'The created link.',
          schema: LinkedIp,
          headers: { Location: { description: 'The link’s address.', schema: { type: 'string' } } },
        },
      },
      handler: async ({ principal, params, body, headers, clientIp }) => {
        const expected = versionFromIfMatch(headers['if-match']);
        const record = await linkedIps.link(actingAccount(principal), params.id, body, clientIp, expected);
        return {
          status: 201,
          body: linkedIps.createdView(record),
          headers: { Location: `${base(params.id)}/${record.id}` },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/profiles/{id}/linked-ips/{linkId}',
      operationId: 'getLinkedIp',
      summary: 'One linked IP',
      tags: ['linked-ips'],
      auth: 'account',
      scope: 'profiles:read',
      request: { params: LinkedIpPath },
      responses: { 200: { description: 'The link.', schema: LinkedIp } },
      handler: async ({ principal, params }) => ({
        status: 200,
        body: linkedIps.view(await linkedIps.get(orgOf(principal), params.id, params.linkId)),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/profiles/{id}/linked-ips/{linkId}',
      operationId: 'deleteLinkedIp',
      summary: 'Unlink an address',
      description: `Its DDNS update URL stops with it. ${IF_MATCH_NOTE}`,
      tags: ['linked-ips'],
      auth: 'account',
      scope: 'profiles:write',
      request: { params: LinkedIpPath },
      errorStatuses: [409, 412],
      responses: { 204: { description: 'Unlinked.' } },
      handler: async ({ principal, params, headers }) => {
        const expected = versionFromIfMatch(headers['if-match']);
        await linkedIps.unlink(orgOf(principal), params.id, params.linkId, expected);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/profiles/{id}/linked-ips/{linkId}/ddns',
      operationId: 'getDdnsUpdateUrl',
      summary: 'A linked IP’s DDNS update URL',
      description:
        'The URL is a credential: a GET on it from a client sets this link to the client’s IPv4 address, proven (the link becomes active). An account whose address is not verified is 403 email_unverified.',
      tags: ['linked-ips'],
      auth: 'account',
      scope: 'profiles:write',
      request: { params: LinkedIpPath },
      responses: { 200: { description: 'The current update URL.', schema: DdnsUpdateUrl } },
      handler: async ({ principal, params }) => ({
        status: 200,
        body: { update_url: await linkedIps.updateUrl(actingAccount(principal), params.id, params.linkId) },
        headers: NO_STORE,
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/profiles/{id}/linked-ips/{linkId}/ddns',
      operationId: 'rotateDdnsUpdateUrl',
      summary: 'Replace a linked IP’s DDNS token',
      description:
        'The previous update URL stops at once. The profile’s version does not change (the edge sees nothing new). An account whose address is not verified is 403 email_unverified.',
      tags: ['linked-ips'],
      auth: 'account',
      scope: 'profiles:write',
      request: { params: LinkedIpPath },
      errorStatuses: [409],
      responses: { 200: { description: 'The new update URL.', schema: DdnsUpdateUrl } },
      handler: async ({ principal, params }) => ({
        status: 200,
        body: {
          update_url: await linkedIps.rotateUpdateUrl(actingAccount(principal), params.id, params.linkId),
        },
        headers: NO_STORE,
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/ddns/{token}',
      operationId: 'updateDdns',
      summary: 'Set the linked IP owning a DDNS token to the caller’s IPv4 address',
      description:
        'The token is the credential, and the call proves the caller’s address: the link is set to it and becomes active. An IPv6 caller, or one whose address is private, loopback or otherwise reserved, is 422 naming `ip`; an address linked to another profile is 409 ip_conflict; a suspended profile is 409 profile_suspended. A change bumps the profile’s version and republishes it.',
      tags: ['linked-ips'],
      auth: 'none',
      request: { params: DdnsTokenPath },
      errorStatuses: [409],
      responses: { 200: { description: 'The linked address.', schema: DdnsUpdate } },
      handler: async ({ params, clientIp }) => ({
        status: 200,
        body: await linkedIps.updateFromDdns(params.token, clientIp),
        headers: NO_STORE,
      }),
    }),
  ];
}
