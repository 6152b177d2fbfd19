import { ProfileSuspension, ProfileSuspensionPatch, type ProfileSuspensionService } from '@svc/domain';
import { operatorActor } from './operator-actor.js';
import { ProfilePath } from './profile.routes.js';
import { type AnyRoute, defineRoute } from './route-definition.js';

/** Profile suspension by operators (spec 3; ROUTES.md "Operator"): every organisation's profiles. */
export function profileSuspensionRoutes(suspensions: ProfileSuspensionService): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/admin/profiles/{id}',
      operationId: 'getProfileSuspension',
      summary: 'A profile’s suspension state',
      description: 'Any organisation’s profile, with the operator-only reason of a current suspension.',
      tags: ['admin'],
      auth: 'account',
      scope: 'admin',
      request: { params: ProfilePath },
      errorStatuses: [404],
      responses: { 200: { description: 'The suspension state.', schema: ProfileSuspension } },
      handler: async ({ params }) => ({ status: 200, body: await suspensions.get(params.id) }),
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/admin/profiles/{id}',
      operationId: 'updateProfileSuspension',
      summary: 'Suspend or reinstate a profile',
      description:
        '`{suspended: true, reason}` suspends (the reason is required and stays with operators); `{suspended: false}` reinstates. A change of state bumps the profile’s version and republishes it: a suspended profile resolves without filtering or logging, and its owner’s writes answer 409 profile_suspended. Sending the current state changes nothing. Audited as `admin.profile_suspended` or `admin.profile_reinstated` in the operator’s organisation.',
      tags: ['admin'],
      auth: 'account',
      scope: 'admin',
      request: { params: ProfilePath, body: ProfileSuspensionPatch },
      errorStatuses: [404],
      responses: {
        200: { description: 'The suspension state after the change.', schema: ProfileSuspension },
      },
      handler: async ({ principal, params, body, clientIp, requestId }) => ({
        status: 200,
        body: await suspensions.patch(params.id, body, operatorActor(principal, { clientIp, requestId })),
      }),
    }),
  ];
}
