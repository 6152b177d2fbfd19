import { DomainError } from './domain-error.js';

/**
 * Refuses to mint a credential that outlives the session (API token, passkey, TOTP, node) for an account
 * whose address is not verified: 403 email_unverified. Anyone can sign up with someone else's address; until
 * the address is proven, the account may sign in, read itself, ask for a new link and sign out, nothing that
 * would still work once the real owner takes the address back (linked IPs and their DDNS URLs included).
 */
export function assertEmailVerified(account: { emailVerifiedAt: Date | null }): void {
  if (account.emailVerifiedAt === null) {
    throw new DomainError(
      'email_unverified',
      'Verify your email address first: open the link we emailed (POST /v1/auth/resend-verification sends a new one).',
    );
  }
}
