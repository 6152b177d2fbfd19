import { createHash } from 'node:crypto';
import {
  APPLE_CONFIGURATION_MEDIA_TYPE,
  appleConfigurationProfile,
  type ProfileService,
  Setup,
  setupInstructions,
} from '@svc/domain';
import { z } from 'zod';
import { ProfilePath } from './profile.routes.js';
import { type AnyRoute, defineRoute } from './route-definition.js';
import { actingOrgId } from './route-principal.js';

/**
 * A name-based UUID (RFC 9562 version 8, SHA-256 of `name`, the RFC's own example of a v8 layout): the same
 * name always gives the same UUID, so a re-downloaded configuration profile carries the UUIDs of the one a
 * device already has. Nothing secret goes in and nothing random comes out, which is all a PayloadUUID needs.
 */
function nameBasedUuid(name: string): string {
  const bytes = createHash('sha256').update(name, 'utf8').digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Setup values and the Apple configuration profile of a profile (ROUTES.md, spec 4.13 Setup). */
export function setupRoutes(profiles: ProfileService, baseUrl: string): AnyRoute[] {
  const orgOf = actingOrgId;
  return [
    defineRoute({
      method: 'get',
      path: '/v1/profiles/{id}/setup',
      operationId: 'getProfileSetup',
      summary: 'Setup values per platform',
      description:
        'DoH URL, DoT host, DoQ address, IPv6 and IPv4 resolvers, with short steps for Apple devices, Android, Windows, Linux, routers, browsers and plain DNS through a linked IP.',
      tags: ['profiles'],
      auth: 'account',
      scope: 'profiles:read',
      request: { params: ProfilePath },
      responses: { 200: { description: 'Setup values built from the profile’s endpoints.', schema: Setup } },
      handler: async ({ principal, params }) => {
        const record = await profiles.get(orgOf(principal), params.id);
        return { status: 200, body: setupInstructions(profiles.view(record), baseUrl) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/profiles/{id}/setup/apple',
      operationId: 'getProfileAppleConfiguration',
      summary: 'Apple configuration profile (.mobileconfig) for DNS over HTTPS',
      description:
        'An XML plist with one `com.apple.dnsSettings.managed` payload (DNSProtocol HTTPS, the profile’s DoH URL and resolver addresses) for iOS 14+ and macOS 11+. Its identifiers and UUIDs are stable per profile, so installing a new download replaces the old one.',
      tags: ['profiles'],
      auth: 'account',
      scope: 'profiles:read',
      request: { params: ProfilePath },
      responses: {
        200: {
          description: 'The configuration profile, as a download.',
          schema: z.string().meta({ description: 'XML property list.' }),
          contentType: APPLE_CONFIGURATION_MEDIA_TYPE,
          headers: {
            'Content-Disposition': {
              description: '`attachment; filename="svc-<id>.mobileconfig"`',
              schema: { type: 'string' },
            },
          },
        },
      },
      handler: async ({ principal, params }) => {
        const profile = profiles.view(await profiles.get(orgOf(principal), params.id));
        const body = appleConfigurationProfile(profile, {
          payloadUuid: nameBasedUuid(`apple-configuration ${profile.endpoints.doh}`),
          contentUuid: nameBasedUuid(`apple-dns-settings ${profile.endpoints.doh}`),
          organisation: new URL(profile.endpoints.doh).hostname,
        });
        return {
          status: 200,
          body,
          contentType: APPLE_CONFIGURATION_MEDIA_TYPE,
          headers: { 'Content-Disposition': `attachment; filename="svc-${profile.id}.mobileconfig"` },
        };
      },
    }),
  ];
}
