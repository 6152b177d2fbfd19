import {
  DeviceId,
  DevicePolicy,
  type DevicePolicyService,
  ProfileId,
  ProfilePause,
  ProfilePauseRequest,
} from '@svc/domain';
import { z } from 'zod';
import { etagOf, versionFromIfMatch } from '../http/etag.js';
import { auditSourceOf } from './route-audit.js';
import { type AnyRoute, defineRoute } from './route-definition.js';
import { actingOrgId } from './route-principal.js';

/** Path of one device of a profile (spec 4.3). */
const DevicePath = z.object({ id: ProfileId, deviceId: DeviceId });

const ETAG_HEADER = {
  ETag: { description: 'The profile version, quoted (strong ETag).', schema: { type: 'string' as const } },
};
const IF_MATCH_NOTE =
  'Send `If-Match` with the ETag you read to write only if nobody changed the profile since (412 version_mismatch otherwise; nothing changes).';
const DEVICE_NOTE =
  '404 for a device the profile has not seen (or forgot), and for another organisation’s profile. A versioned write of the profile, published to its edges and nodes; 409 profile_suspended while an operator suspended the profile.';

/**
 * What a device overrides of its profile, and its own timed pause (ROUTES.md "Beyond the spec", issue 38,
 * ADR 0044): kept on the device, written as versioned writes of the profile whose documents carry the device.
 */
export function devicePolicyRoutes(policies: DevicePolicyService): AnyRoute[] {
  const orgOf = actingOrgId;
  return [
    defineRoute({
      method: 'get',
      path: '/v1/profiles/{id}/devices/{deviceId}/policy',
      operationId: 'getDevicePolicy',
      summary: 'What a device overrides of its profile’s policy',
      description: 'A field that is absent is inherited from the profile; `{}` inherits everything.',
      tags: ['devices'],
      auth: 'account',
      scope: 'profiles:read',
      request: { params: DevicePath },
      responses: { 200: { description: 'The device’s policy.', schema: DevicePolicy, headers: ETAG_HEADER } },
      handler: async ({ principal, params }) => {
        const answer = await policies.policy(orgOf(principal), params.id, params.deviceId);
        return { status: 200, body: answer.policy, headers: { ETag: etagOf(answer.version) } };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/v1/profiles/{id}/devices/{deviceId}/policy',
      operationId: 'replaceDevicePolicy',
      summary: 'Replace what a device overrides of its profile’s policy',
      description: `\`{}\` inherits everything. \`bedtime\` and each assignment's \`schedule\` name one of the profile's schedules (422 validation_failed naming the field); parental services and categories and assignments' items must be in the catalogues. Audited as \`device.policy_replaced\`. ${DEVICE_NOTE} ${IF_MATCH_NOTE}`,
      tags: ['devices'],
      auth: 'account',
      scope: 'profiles:write',
      idempotent: true,
      request: { params: DevicePath, body: DevicePolicy },
      errorStatuses: [409, 412],
      responses: {
        200: {
          description: 'The device’s policy after the change.',
          schema: DevicePolicy,
          headers: ETAG_HEADER,
        },
      },
      handler: async (context) => {
        const { principal, params, body, headers } = context;
        const answer = await policies.replacePolicy(
          orgOf(principal),
          params.id,
          params.deviceId,
          body,
          auditSourceOf(context),
          versionFromIfMatch(headers['if-match']),
        );
        return { status: 200, body: answer.policy, headers: { ETag: etagOf(answer.version) } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/profiles/{id}/devices/{deviceId}/pause',
      operationId: 'pauseDevice',
      summary: 'Pause one device’s filtering for 1 to 1440 minutes',
      description: `Until \`paused_until\` (exclusive) the profile's blocking is off for this device at every edge and node; the edges end the pause by their own clocks. A new pause replaces a running one, from now. Audited as \`device.paused\`. ${DEVICE_NOTE} ${IF_MATCH_NOTE}`,
      tags: ['devices'],
      auth: 'account',
      scope: 'profiles:write',
      idempotent: true,
      request: { params: DevicePath, body: ProfilePauseRequest },
      errorStatuses: [409, 412],
      responses: { 200: { description: 'When the pause ends.', schema: ProfilePause, headers: ETAG_HEADER } },
      handler: async (context) => {
        const { principal, params, body, headers } = context;
        const answer = await policies.pause(
          orgOf(principal),
          params.id,
          params.deviceId,
          body.minutes,
          auditSourceOf(context),
          versionFromIfMatch(headers['if-match']),
        );
        return {
          status: 200,
          body: { paused_until: answer.pausedUntil.toISOString() },
          headers: { ETag: etagOf(answer.version) },
        };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/profiles/{id}/devices/{deviceId}/pause',
      operationId: 'resumeDevice',
      summary: 'End a device’s pause',
      description: `Filtering resumes at once. Idempotent: a device that is not paused, or whose pause has passed, answers 204 unchanged. Audited as \`device.resumed\` when a pause ended. ${DEVICE_NOTE} ${IF_MATCH_NOTE}`,
      tags: ['devices'],
      auth: 'account',
      scope: 'profiles:write',
      request: { params: DevicePath },
      errorStatuses: [409, 412],
      responses: { 204: { description: 'Not paused (any more).', headers: ETAG_HEADER } },
      handler: async (context) => {
        const { principal, params, headers } = context;
        const record = await policies.resume(
          orgOf(principal),
          params.id,
          params.deviceId,
          auditSourceOf(context),
          versionFromIfMatch(headers['if-match']),
        );
        return { status: 204, headers: { ETag: etagOf(record.version) } };
      },
    }),
  ];
}
