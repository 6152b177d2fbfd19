import {
  type Account,
  type AccountRecord,
  type ActingMember,
  accountView,
  DomainError,
  type SessionRow,
} from '@svc/domain';
import type { Principal } from '../http/principal.js';

/** The account acting through a session or API token; routes with auth `account` or `session` always have one. */
export function actingAccount(principal: Principal | null): AccountRecord {
  if (principal?.account == null) throw new DomainError('unauthenticated', 'This route needs a credential.');
  return principal.account;
}

/** The session of a session-only route. */
export function actingSession(principal: Principal | null): { session: SessionRow; account: AccountRecord } {
  const account = actingAccount(principal);
  if (principal?.session == null) {
    throw new DomainError('session_required', 'This operation needs a signed-in session.');
  }
  return { session: principal.session, account };
}

/**
 * The organisation a tenant-scoped route acts in (ADR 0047): the credential's, not the account's own. An
 * account that belongs to no organisation any more has none (403 insufficient_role).
 */
export function actingOrgId(principal: Principal | null): string {
  return actingMember(principal).orgId;
}

/** The caller as a member of the organisation it acts in. */
export function actingMember(principal: Principal | null): ActingMember {
  const account = actingAccount(principal);
  if (principal?.orgId == null || principal.role === null) {
    throw new DomainError('insufficient_role', 'This account no longer belongs to an organisation.');
  }
  return { accountId: account.id, orgId: principal.orgId, role: principal.role };
}

/** The public account of the caller, as a member of the organisation it acts in (GET /v1/auth/me). */
export function currentAccountView(principal: Principal | null): Account {
  const account = actingAccount(principal);
  return {
    ...accountView(account),
    org_id: principal?.orgId ?? account.orgId,
    role: principal?.role ?? account.role,
  };
}
