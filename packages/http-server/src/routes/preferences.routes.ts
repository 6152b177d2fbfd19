import { Preferences, PreferencesPatch, type PreferencesService } from '@svc/domain';
import { auditSourceOf } from './route-audit.js';
import { type AnyRoute, defineRoute } from './route-definition.js';
import { actingSession } from './route-principal.js';

/** Account preferences (spec 2.2, 4.8; ROUTES.md). */
export function preferencesRoutes(preferences: PreferencesService): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/auth/me/preferences',
      operationId: 'getPreferences',
      summary: 'Account preferences',
      description: 'Every key is present; unset keys take their defaults (spec 2.2).',
      tags: ['auth'],
      auth: 'session',
      responses: { 200: { description: 'The preferences.', schema: Preferences } },
      handler: async ({ principal }) => {
        const { account } = actingSession(principal);
        return { status: 200, body: await preferences.get(account.id) };
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/auth/me/preferences',
      operationId: 'updatePreferences',
      summary: 'Change account preferences',
      description:
        'JSON merge: omitted keys keep their value; unknown keys and a body that changes nothing are 422 validation_failed. Audited as `account.preferences_updated`.',
      tags: ['auth'],
      auth: 'session',
      request: { body: PreferencesPatch },
      responses: { 200: { description: 'The preferences after the change.', schema: Preferences } },
      handler: async (context) => {
        const { account } = actingSession(context.principal);
        return {
          status: 200,
          body: await preferences.update(account, context.body, auditSourceOf(context)),
        };
      },
    }),
  ];
}
