import {
  Device,
  DeviceId,
  DeviceList,
  DevicePatch,
  type DeviceService,
  PageQuery,
  ProfileId,
} from '@svc/domain';
import { z } from 'zod';
import { ProfilePath } from './profile.routes.js';
import { auditSourceOf } from './route-audit.js';
import { type AnyRoute, defineRoute } from './route-definition.js';
import { actingOrgId } from './route-principal.js';

/** Path of one device of a profile (spec 4.3: deviceId is a string of at most 64 characters). */
const DevicePath = z.object({ id: ProfileId, deviceId: DeviceId });

const NO_VERSION_NOTE =
  'Device changes do not change the profile’s version (nothing the resolvers use changes); a suspended profile refuses them with 409 profile_suspended.';

/** Devices of a profile (spec 2.5, 4.3; ROUTES.md). */
export function deviceRoutes(devices: DeviceService): AnyRoute[] {
  const orgOf = actingOrgId;
  return [
    defineRoute({
      method: 'get',
      path: '/v1/profiles/{id}/devices',
      operationId: 'listDevices',
      summary: 'A profile’s devices',
      description:
        'Most recently seen first. A device seen again while paging moves to the front, so it may be skipped by a walk already past it.',
      tags: ['devices'],
      auth: 'account',
      scope: 'profiles:read',
      request: { params: ProfilePath, query: PageQuery },
      responses: { 200: { description: 'Devices, most recently seen first.', schema: DeviceList } },
      handler: async ({ principal, params, query }) => ({
        status: 200,
        body: await devices.list(orgOf(principal), params.id, query.limit, query.cursor),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/profiles/{id}/devices/{deviceId}',
      operationId: 'getDevice',
      summary: 'One device',
      tags: ['devices'],
      auth: 'account',
      scope: 'profiles:read',
      request: { params: DevicePath },
      responses: { 200: { description: 'The device.', schema: Device } },
      handler: async ({ principal, params }) => ({
        status: 200,
        body: await devices.get(orgOf(principal), params.id, params.deviceId),
      }),
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/profiles/{id}/devices/{deviceId}',
      operationId: 'updateDevice',
      summary: 'Name, kind or annotate a device',
      description: `Absent fields are unchanged; null or an empty string clears display_name or notes. The device id never changes. Audited as \`device.update\`. ${NO_VERSION_NOTE}`,
      tags: ['devices'],
      auth: 'account',
      scope: 'profiles:write',
      request: { params: DevicePath, body: DevicePatch },
      errorStatuses: [409],
      responses: {
        200: {
          description: 'The device after the change; queries_24h and blocked_24h are null.',
          schema: Device,
        },
      },
      handler: async (context) => {
        const { principal, params, body } = context;
        return {
          status: 200,
          body: await devices.update(
            orgOf(principal),
            params.id,
            params.deviceId,
            body,
            auditSourceOf(context),
          ),
        };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/profiles/{id}/devices/{deviceId}',
      operationId: 'forgetDevice',
      summary: 'Forget a device',
      description: `Removes its display name, kind and notes; logs keep its id, and a device seen again with its name appears as new. Audited as \`device.forget\`. ${NO_VERSION_NOTE}`,
      tags: ['devices'],
      auth: 'account',
      scope: 'profiles:write',
      request: { params: DevicePath },
      errorStatuses: [409],
      responses: { 204: { description: 'Forgotten.' } },
      handler: async (context) => {
        const { principal, params } = context;
        await devices.forget(orgOf(principal), params.id, params.deviceId, auditSourceOf(context));
        return { status: 204 };
      },
    }),
  ];
}
