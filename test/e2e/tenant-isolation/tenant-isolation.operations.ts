import { randomUUID } from 'node:crypto';
import type { ResourceKind } from '../../support/tenant-resources.js';

export interface Operation {
  operationId: string;
  requestBody?: unknown;
  security?: Record<string, unknown>[];
  parameters?: unknown[];
  responses: Record<string, { content?: Record<string, unknown> }>;
}
export interface Walked {
  method: string;
  path: string;
  operation: Operation;
}
/** How the stranger presents itself, and the status every request so made must get. */
export interface Credential {
  name: string;
  headers: Record<string, string>;
  expected: number;
}

/**
 * A valid body for every operation with a path parameter that takes one, so the request reaches the tenant
 * check instead of stopping at validation. A new operation without an example fails the walk: add one here.
 */
export const EXAMPLE_BODIES: Record<string, object> = {
  updateProfile: { name: 'taken over' },
  replaceProfileRules: { deny: ['x.example'], allow: [], rewrites: [] },
  replaceProfileLists: { lists: [1] },
  replaceProfileSchedules: {
    schedules: [{ name: 'taken', windows: [{ days: ['mon'], start: '00:00', end: '00:00' }] }],
  },
  pauseProfile: { minutes: 5 },
  createProfileAllowance: { domain: 'taken.example', minutes: 5 },
  replaceDevicePolicy: { parental: 'off' },
  pauseDevice: { minutes: 5 },
  createLinkedIp: { ddns: true },
  createListReport: { domain: 'ads.example', list_id: 1, kind: 'false_positive' },
  updateDevice: { display_name: 'taken over' },
  createNode: { name: 'taken over' },
  renamePasskey: { name: 'taken over' },
  updateProfileSuspension: { suspended: true, reason: 'taken over' },
  decideListReport: { status: 'rejected', resolution_note: 'taken over' },
  deleteAccountOnBehalf: { reason: 'taken over' },
  updateMemberRole: { role: 'viewer' },
  cancelAccountDeletionOnBehalf: { reason: 'taken over' },
  updateWebhook: { description: 'taken over' },
  rotateWebhookSecret: { overlap_hours: 1 },
};

/** Bodies of the creating POSTs without a path parameter, for the Idempotency-Key check. */
export const CREATE_BODIES: Record<string, object> = {
  createProfile: { name: 'idempotent' },
  createToken: { name: 'idempotent', scopes: ['profiles:read'] },
  createWebhook: { url: 'https://hooks.invalid/idempotent', events: ['profile.created'] },
};

/**
 * What each path parameter names, keyed by the path up to and including it. `deployment` is a resource no
 * organisation owns (operator and source blocks); `shape` is a value of an enumeration, not a resource. A new
 * path parameter fails the walk until it is named here.
 */
const PARAMETER_RESOURCES: Record<string, ResourceKind | 'deployment' | 'shape'> = {
  '/v1/profiles/{id}': 'profile',
  '/v1/profiles/{id}/linked-ips/{linkId}': 'linkedIp',
  '/v1/profiles/{id}/devices/{deviceId}': 'device',
  '/v1/profiles/{id}/allowances/{allowanceId}': 'allowance',
  '/v1/profiles/{id}/nodes/{nodeId}': 'node',
  '/v1/profiles/{id}/analytics/{shape}': 'shape',
  '/v1/tokens/{id}': 'apiToken',
  '/v1/auth/sessions/{id}': 'session',
  '/v1/auth/passkeys/{id}': 'passkey',
  '/v1/auth/me/exports/{id}': 'dataExport',
  '/v1/admin/profiles/{id}': 'profile',
  '/v1/admin/list-reports/{id}': 'listReport',
  '/v1/admin/accounts/{id}': 'account',
  '/v1/org/members/{id}': 'member',
  '/v1/org/invitations/{id}': 'invitation',
  '/v1/auth/me/organisations/{org_id}': 'organisation',
  '/v1/admin/operator-blocks/{id}': 'deployment',
  '/v1/admin/source-blocks/{id}': 'deployment',
  '/v1/webhooks/{id}': 'webhook',
  '/v1/webhooks/{id}/deliveries/{delivery}': 'webhookDelivery',
};

/** Operations with a path parameter that present no account, so tenant isolation does not apply to them. */
export const OUTSIDE_THE_WALK: Record<string, string> = {
  updateDdns:
    'the unguessable token in the path is the credential itself; no account is presented (ROUTES.md)',
  downloadNodeListArtifact:
    'a node endpoint (accounts are refused by the node self test); a compiled list is content-addressed and the same for every organisation',
};

/**
 * Operator routes (spec 1.7, 5.4) are deployment-wide by design: an operator sees every organisation's
 * profiles, reports and accounts, so "another organisation" does not apply to them. The walk still sends them
 * the stranger's (non-operator) credentials: refused with 403, identically for a real id and a made-up one.
 */
export const isOperatorRoute = (path: string) => path.startsWith('/v1/admin/');

/** Headers that differ between any two answers, whatever was asked. */
export const VOLATILE_HEADERS = new Set(['x-request-id', 'date', 'content-length']);

/** Well-formed ids of resources that do not exist, so only existence and ownership decide. */
export const MISSING: Record<ResourceKind | 'deployment', string> = {
  profile: 'zz9zz9',
  linkedIp: randomUUID(),
  device: 'no-such-device',
  node: randomUUID(),
  listReport: randomUUID(),
  apiToken: randomUUID(),
  session: randomUUID(),
  passkey: randomUUID(),
  dataExport: randomUUID(),
  account: randomUUID(),
  allowance: randomUUID(),
  webhook: randomUUID(),
  webhookDelivery: randomUUID(),
  member: randomUUID(),
  invitation: randomUUID(),
  organisation: randomUUID(),
  deployment: randomUUID(),
};

/** The path parameters of `path`, in order, with what each names (undefined when nothing is recorded). */
export function parametersOf(path: string) {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => {
    const name = match[1] ?? '';
    const key = path.slice(0, (match.index ?? 0) + match[0].length);
    return { name, kind: PARAMETER_RESOURCES[key] };
  });
}

/** Every combination of one value per parameter. */
export function combinations(values: Record<string, string[]>): Record<string, string>[] {
  return Object.entries(values).reduce<Record<string, string>[]>(
    (rows, [name, options]) => rows.flatMap((row) => options.map((value) => ({ ...row, [name]: value }))),
    [{}],
  );
}

export const fill = (path: string, values: Record<string, string>) =>
  path.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(values[name] ?? ''));
