import { DomainError } from '../shared/domain-error.js';
import { type Role, roleAtLeast } from './roles.js';

/**
 * What an operation asks of the caller's membership: a minimum {@link Role} in the organisation the
 * credential acts in; `self` (any member: it acts on the caller's own account, not on the organisation);
 * `operator` (any member: the `admin` scope of operators decides); `public` and `node` (no account at all).
 */
export type RoleRequirement = Role | 'self' | 'operator' | 'public' | 'node';

/**
 * The role matrix of issue 39: every operation of the API, as `METHOD /path` of the OpenAPI document, and
 * what it asks. The route pipeline enforces it and docs/roles.md shows it; a test walks the OpenAPI document
 * and fails for an operation missing here, and an account route missing at run time needs the owner (closed
 * rather than open).
 */
export const ROLE_MATRIX: Readonly<Record<string, RoleRequirement>> = {
  // Public and node routes: no member at all.
  'GET /v1/meta': 'public',
  'GET /v1/capabilities': 'public',
  'GET /v1/pops': 'public',
  'GET /v1/ip': 'public',
  'GET /v1/openapi.yaml': 'public',
  'GET /v1/lists': 'public',
  'GET /v1/parental/services': 'public',
  'GET /v1/parental/categories': 'public',
  'GET /v1/auth/signup-mode': 'public',
  'POST /v1/auth/signup': 'public',
  'POST /v1/auth/verify': 'public',
  'POST /v1/auth/resend-verification': 'public',
  'POST /v1/waitlist': 'public',
  'GET /v1/waitlist/confirm': 'public',
  'POST /v1/auth/login': 'public',
  'GET /v1/auth/status': 'public',
  'POST /v1/auth/password/reset': 'public',
  'POST /v1/auth/password/reset/confirm': 'public',
  'POST /v1/auth/recovery': 'public',
  'POST /v1/auth/recovery/confirm': 'public',
  'POST /v1/auth/passkeys/authentication/options': 'public',
  'POST /v1/auth/passkeys/authentication': 'public',
  'GET /v1/ddns/{token}': 'public',
  'POST /v1/nodes/enrol': 'public',
  'GET /v1/nodes/self': 'node',
  'DELETE /v1/nodes/self': 'node',
  'POST /v1/nodes/self/token': 'node',
  'GET /v1/nodes/self/profile': 'node',
  'GET /v1/nodes/self/link': 'node',
  'GET /v1/nodes/self/lists': 'node',
  'GET /v1/nodes/self/lists/{sha256}': 'node',
  // The caller's own account, whatever their role.
  'POST /v1/auth/logout': 'self',
  'GET /v1/auth/me': 'self',
  'DELETE /v1/auth/me': 'self',
  'POST /v1/auth/me/undelete': 'self',
  'GET /v1/auth/me/organisations': 'self',
  'PUT /v1/auth/me/organisation': 'self',
  'DELETE /v1/auth/me/organisations/{org_id}': 'self',
  'GET /v1/auth/sessions': 'self',
  'DELETE /v1/auth/sessions': 'self',
  'DELETE /v1/auth/sessions/{id}': 'self',
  'POST /v1/auth/password': 'self',
  'GET /v1/auth/totp': 'self',
  'POST /v1/auth/totp': 'self',
  'POST /v1/auth/totp/confirm': 'self',
  'POST /v1/auth/totp/disable': 'self',
  'GET /v1/auth/recovery-codes': 'self',
  'POST /v1/auth/recovery-codes': 'self',
  'GET /v1/auth/passkeys': 'self',
  'PATCH /v1/auth/passkeys/{id}': 'self',
  'DELETE /v1/auth/passkeys/{id}': 'self',
  'POST /v1/auth/passkeys/registration/options': 'self',
  'POST /v1/auth/passkeys/registration': 'self',
  'GET /v1/auth/me/preferences': 'self',
  'PATCH /v1/auth/me/preferences': 'self',
  'POST /v1/auth/me/exports': 'self',
  'GET /v1/auth/me/exports': 'self',
  'GET /v1/auth/me/exports/{id}': 'self',
  'GET /v1/auth/me/exports/{id}/download': 'self',
  'POST /v1/client-errors': 'self',
  'POST /v1/feedback': 'self',
  'POST /v1/org/invitations/accept': 'self',
  // A token's scopes never exceed its creator's role: the role is checked on every request it makes.
  'GET /v1/tokens': 'self',
  'POST /v1/tokens': 'self',
  'DELETE /v1/tokens/{id}': 'self',
  // Reading profiles, logs and analytics: every member.
  'GET /v1/profiles': 'viewer',
  'GET /v1/profiles/{id}': 'viewer',
  'GET /v1/profiles/{id}/rules': 'viewer',
  'GET /v1/profiles/{id}/lists': 'viewer',
  'GET /v1/profiles/{id}/schedules': 'viewer',
  'GET /v1/profiles/{id}/allowances': 'viewer',
  'GET /v1/profiles/{id}/linked-ips': 'viewer',
  'GET /v1/profiles/{id}/linked-ips/{linkId}': 'viewer',
  'GET /v1/profiles/{id}/devices': 'viewer',
  'GET /v1/profiles/{id}/devices/{deviceId}': 'viewer',
  'GET /v1/profiles/{id}/devices/{deviceId}/policy': 'viewer',
  'GET /v1/profiles/{id}/logs': 'viewer',
  'GET /v1/profiles/{id}/analytics/{shape}': 'viewer',
  'GET /v1/profiles/{id}/logs/stream': 'viewer',
  'GET /v1/profiles/{id}/list-reports': 'viewer',
  'GET /v1/profiles/{id}/setup': 'viewer',
  'GET /v1/profiles/{id}/setup/apple': 'viewer',
  'GET /v1/profiles/{id}/nodes': 'viewer',
  'GET /v1/profiles/{id}/nodes/{nodeId}': 'viewer',
  'GET /v1/org/members': 'viewer',
  // Changing profiles and what hangs off them: editors and above.
  'POST /v1/profiles': 'editor',
  'PATCH /v1/profiles/{id}': 'editor',
  'DELETE /v1/profiles/{id}': 'editor',
  'PUT /v1/profiles/{id}/rules': 'editor',
  'PUT /v1/profiles/{id}/lists': 'editor',
  'PUT /v1/profiles/{id}/schedules': 'editor',
  'POST /v1/profiles/{id}/pause': 'editor',
  'DELETE /v1/profiles/{id}/pause': 'editor',
  'POST /v1/profiles/{id}/allowances': 'editor',
  'DELETE /v1/profiles/{id}/allowances/{allowanceId}': 'editor',
  'POST /v1/profiles/{id}/linked-ips': 'editor',
  'DELETE /v1/profiles/{id}/linked-ips/{linkId}': 'editor',
  // The DDNS update address is a credential of its own.
  'GET /v1/profiles/{id}/linked-ips/{linkId}/ddns': 'editor',
  'POST /v1/profiles/{id}/linked-ips/{linkId}/ddns': 'editor',
  'PATCH /v1/profiles/{id}/devices/{deviceId}': 'editor',
  'DELETE /v1/profiles/{id}/devices/{deviceId}': 'editor',
  'PUT /v1/profiles/{id}/devices/{deviceId}/policy': 'editor',
  'POST /v1/profiles/{id}/devices/{deviceId}/pause': 'editor',
  'DELETE /v1/profiles/{id}/devices/{deviceId}/pause': 'editor',
  'POST /v1/profiles/{id}/list-reports': 'editor',
  'POST /v1/profiles/{id}/nodes': 'editor',
  'DELETE /v1/profiles/{id}/nodes/{nodeId}': 'editor',
  // The organisation itself: admins and the owner.
  'GET /v1/auth/audit': 'admin',
  'GET /v1/org/invitations': 'admin',
  'POST /v1/org/invitations': 'admin',
  'DELETE /v1/org/invitations/{id}': 'admin',
  'PATCH /v1/org/members/{id}': 'admin',
  'DELETE /v1/org/members/{id}': 'admin',
  'POST /v1/org/ownership': 'owner',
  // Webhooks send the organisation's events elsewhere, signed with its secrets (issue 40).
  'GET /v1/webhooks': 'admin',
  'POST /v1/webhooks': 'admin',
  'GET /v1/webhooks/{id}': 'admin',
  'PATCH /v1/webhooks/{id}': 'admin',
  'DELETE /v1/webhooks/{id}': 'admin',
  'POST /v1/webhooks/{id}/rotate-secret': 'admin',
  'POST /v1/webhooks/{id}/test': 'admin',
  'GET /v1/webhooks/{id}/deliveries': 'admin',
  'POST /v1/webhooks/{id}/deliveries/{delivery}/redeliver': 'admin',
  // Operator routes: the admin scope of operator accounts decides, not the organisation role.
  'GET /v1/admin/operator-blocks': 'operator',
  'POST /v1/admin/operator-blocks': 'operator',
  'DELETE /v1/admin/operator-blocks/{id}': 'operator',
  'GET /v1/admin/source-blocks': 'operator',
  'POST /v1/admin/source-blocks': 'operator',
  'DELETE /v1/admin/source-blocks/{id}': 'operator',
  'GET /v1/admin/profiles/{id}': 'operator',
  'PATCH /v1/admin/profiles/{id}': 'operator',
  'GET /v1/admin/list-reports': 'operator',
  'PATCH /v1/admin/list-reports/{id}': 'operator',
  'GET /v1/admin/lists/sources': 'operator',
  'GET /v1/admin/lists/versions': 'operator',
  'GET /v1/admin/audit': 'operator',
  'GET /v1/admin/client-errors': 'operator',
  'GET /v1/admin/feedback': 'operator',
  'GET /v1/admin/accounts': 'operator',
  'GET /v1/admin/profiles': 'operator',
  'POST /v1/admin/accounts/{id}/deletion': 'operator',
  'DELETE /v1/admin/accounts/{id}/deletion': 'operator',
};

/** The requirement of `method path`; an operation missing from the matrix needs the owner. */
export function roleRequirementOf(method: string, path: string): RoleRequirement {
  return ROLE_MATRIX[`${method.toUpperCase()} ${path}`] ?? 'owner';
}

/**
 * Throws 403 insufficient_role when `role` does not meet what `method path` asks; a null role (an account that
 * belongs to no organisation any more) meets only what asks for no role.
 */
export function assertRoleAllows(method: string, path: string, role: Role | null): void {
  const requirement = roleRequirementOf(method, path);
  if (
    requirement === 'self' ||
    requirement === 'operator' ||
    requirement === 'public' ||
    requirement === 'node'
  )
    return;
  if (role === null) {
    throw new DomainError('insufficient_role', 'This account no longer belongs to an organisation.');
  }
  if (roleAtLeast(role, requirement)) return;
  throw new DomainError(
    'insufficient_role',
    `This operation needs the ${requirement} role or above in this organisation; you are ${role === 'admin' ? 'an' : 'a'} ${role}.`,
  );
}
