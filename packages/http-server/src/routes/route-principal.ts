import { type AccountRecord, DomainError, type SessionRow } from '@svc/domain';
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
