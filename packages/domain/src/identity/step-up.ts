import { DomainError } from '../shared/domain-error.js';
import type { SessionRow } from './identity.records.js';
import { IdentityLimits } from './identity.settings.js';

/** True when the session signed in within the step-up window at `now` (spec 5.5.2). */
export function isRecentSignIn(session: SessionRow, now: Date): boolean {
  return now.getTime() - session.createdAt.getTime() <= IdentityLimits.stepUpWindowMs;
}

/**
 * Credential changes (second factors, passkeys, API tokens, account deletion) need a sign-in within the last
 * five minutes, so that a session cookie left behind or stolen cannot mint a lasting credential: 403
 * reauth_required otherwise.
 */
export function assertRecentSignIn(session: SessionRow, now: Date): void {
  if (!isRecentSignIn(session, now)) {
    throw new DomainError('reauth_required', 'Sign in again to change credentials (within five minutes).');
  }
}
