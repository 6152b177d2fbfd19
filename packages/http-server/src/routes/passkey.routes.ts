import {
  AccountEnvelope,
  PasskeyAuthenticationOptionsRequest,
  PasskeyAuthenticationRequest,
  PasskeyCreationOptions,
  PasskeyList,
  PasskeyRegistered,
  PasskeyRegistrationRequest,
  PasskeyRename,
  PasskeyRequestOptions,
  Passkey as PasskeyResource,
  type PasskeyService,
} from '@svc/domain';
import { z } from 'zod';
import { sessionCookie, sessionTokenOf } from '../http/session-cookie.js';
import { auditSourceOf } from './route-audit.js';
import { type AnyRoute, defineRoute } from './route-definition.js';
import { actingSession } from './route-principal.js';

const STEP_UP = 'Needs a sign-in within the last five minutes (403 reauth_required).';
const PasskeyId = z.object({ id: z.uuid('must be a uuid') });

/** Passkeys: registration, sign-in, listing, renaming, removal (ROUTES.md "Second factors", spec 4.8). */
export function passkeyRoutes(passkeys: PasskeyService, secureCookies: boolean): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/auth/passkeys',
      operationId: 'listPasskeys',
      summary: 'Passkeys of the account',
      tags: ['second factors'],
      auth: 'session',
      responses: { 200: { description: 'Oldest first.', schema: PasskeyList } },
      handler: async ({ principal }) => ({
        status: 200,
        body: { passkeys: await passkeys.list(actingSession(principal).account.id) },
      }),
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/auth/passkeys/{id}',
      operationId: 'renamePasskey',
      summary: 'Rename a passkey',
      tags: ['second factors'],
      auth: 'session',
      request: { params: PasskeyId, body: PasskeyRename },
      errorStatuses: [404],
      responses: { 200: { description: 'The passkey after the change.', schema: PasskeyResource } },
      handler: async ({ principal, params, body }) => ({
        status: 200,
        body: await passkeys.rename(actingSession(principal).account.id, params.id, body.name),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/auth/passkeys/{id}',
      operationId: 'deletePasskey',
      summary: 'Remove a passkey',
      description: `${STEP_UP} 409 last_credential when it is the account's last way to sign in (no password and no other passkey). A notice is emailed.`,
      tags: ['second factors'],
      auth: 'session',
      request: { params: PasskeyId },
      errorStatuses: [404, 409],
      responses: { 204: { description: 'Removed.' } },
      handler: async ({ principal, params, clientIp, requestId }) => {
        const { session, account } = actingSession(principal);
        await passkeys.remove(session, account, params.id, auditSourceOf({ principal, clientIp, requestId }));
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/passkeys/registration/options',
      operationId: 'startPasskeyRegistration',
      summary: 'Start registering a passkey',
      description: `${STEP_UP} A restricted recovery session may call it without. An account whose address is not verified is 403 email_unverified. Answers the options for navigator.credentials.create() (JSON form); their challenge is single use, valid two minutes, for this session only.`,
      tags: ['second factors'],
      auth: 'session',
      allowRestricted: true,
      errorStatuses: [501],
      responses: { 200: { description: 'WebAuthn creation options.', schema: PasskeyCreationOptions } },
      handler: async ({ principal }) => {
        const { session, account } = actingSession(principal);
        return { status: 200, body: await passkeys.registrationOptions(session, account) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/passkeys/registration',
      operationId: 'registerPasskey',
      summary: 'Verify and store a passkey',
      description:
        'Takes the JSON form of the new credential. Turns the second factor on; ten single-use recovery codes come with the first second factor, shown this once; a restricted recovery session becomes a normal one. A notice is emailed. 400 ceremony_invalid for a challenge that is unknown, used, expired or another session’s; 400 passkey_invalid when the attestation does not verify; 409 passkey_exists.',
      tags: ['second factors'],
      auth: 'session',
      allowRestricted: true,
      request: { body: PasskeyRegistrationRequest },
      errorStatuses: [409, 501],
      responses: {
        201: {
          description: 'Stored.',
          schema: PasskeyRegistered,
          headers: { Location: { description: 'The passkey’s address.', schema: { type: 'string' } } },
        },
      },
      handler: async ({ principal, body, clientIp, requestId }) => {
        const { session, account } = actingSession(principal);
        const source = auditSourceOf({ principal, clientIp, requestId });
        const registered = await passkeys.register(session, account, body, source);
        return {
          status: 201,
          body: registered,
          headers: { Location: `/v1/auth/passkeys/${registered.passkey.id}` },
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/passkeys/authentication/options',
      operationId: 'startPasskeySignIn',
      summary: 'Start signing in with a passkey',
      description:
        'Options for navigator.credentials.get() (JSON form). Without `email` the browser offers discoverable passkeys; with one, the account’s passkeys are allowed, and an address without passkeys gets a stable stand-in credential, so the answer does not tell whether the address is registered. The challenge is single use and valid two minutes.',
      tags: ['auth'],
      auth: 'none',
      request: { body: PasskeyAuthenticationOptionsRequest },
      errorStatuses: [501],
      responses: { 200: { description: 'WebAuthn request options.', schema: PasskeyRequestOptions } },
      handler: async ({ body }) => ({
        status: 200,
        body: await passkeys.authenticationOptions(body.email),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/passkeys/authentication',
      operationId: 'signInWithPasskey',
      summary: 'Sign in with a passkey',
      description:
        'Verifies the assertion and sets the `svc_session` cookie; a passkey sign-in counts as a sign-in with a second factor (spec 5.4) and is never slowed after failures. 401 invalid_credentials for a passkey not registered here; 400 passkey_invalid when the assertion does not verify or its signature counter did not increase; 400 ceremony_invalid for a challenge that is unknown, used or expired.',
      tags: ['auth'],
      auth: 'none',
      request: { body: PasskeyAuthenticationRequest },
      errorStatuses: [401, 501],
      responses: {
        200: {
          description: 'Signed in.',
          schema: AccountEnvelope,
          headers: { 'Set-Cookie': { description: 'The session cookie.', schema: { type: 'string' } } },
        },
      },
      handler: async ({ body, clientIp, headers }) => {
        const issued = await passkeys.authenticate(body.response, {
          ip: clientIp,
          userAgent: String(headers['user-agent'] ?? ''),
          replacing: sessionTokenOf(typeof headers.cookie === 'string' ? headers.cookie : undefined),
        });
        return {
          status: 200,
          body: { account: issued.account },
          headers: { 'Set-Cookie': sessionCookie(issued.token, issued.expiresAt, secureCookies) },
        };
      },
    }),
  ];
}
