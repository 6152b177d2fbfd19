import { endLinksOfUnverifiedPast } from '../linked-ips/linked-ip-proof.js';
import { DomainError } from '../shared/domain-error.js';
import type { KeyedHash } from '../shared/keyed-hash.ports.js';
import type { AccountRecord } from './identity.records.js';
import type { UnverifiedPastScope } from './identity-transaction.ports.js';

/**
 * Refuses to mint a credential that outlives the session (API token, passkey, TOTP, node) for an account
 * whose address is not verified: 403 email_unverified. Anyone can sign up with someone else's address; until
 * the address is proven, the account may sign in, read itself, ask for a new link and sign out, nothing that
 * would still work once the real owner takes the address back.
 */
export function assertEmailVerified(account: Pick<AccountRecord, 'emailVerifiedAt'>): void {
  if (account.emailVerifiedAt === null) {
    throw new DomainError(
      'email_unverified',
      'Verify your email address first: open the link we emailed (POST /v1/auth/resend-verification sends a new one).',
    );
  }
}

/**
 * Called in the transaction that verifies an address for the first time (the emailed link, or a password
 * reset, which proves the mailbox too): every session and credential made before it ends, since whoever made
 * them had not proven the address. The person who verified signs in again. The organisation's DDNS update
 * URLs are credentials too (rotated), and its unproven address claims are dropped.
 */
export async function endCredentialsOfUnverifiedPast(
  tx: UnverifiedPastScope,
  account: Pick<AccountRecord, 'id' | 'orgId'>,
  at: Date,
  keyedHash: KeyedHash,
): Promise<void> {
  const { identity } = tx;
  const accountId = account.id;
  await identity.sessions.revokeAllExcept(accountId, null, at);
  await identity.apiTokens.revokeAll(accountId, at);
  const credentials = await identity.passkeys.lockCredentials(accountId);
  for (const passkeyId of credentials?.passkeyIds ?? []) await identity.passkeys.delete(accountId, passkeyId);
  await identity.secondFactors.setPendingTotp(accountId, null);
  await identity.secondFactors.disableTotp(accountId);
  await identity.secondFactors.replaceRecoveryCodes(accountId, [], at);
  await identity.secondFactors.setMfa(accountId, false);
  await endLinksOfUnverifiedPast(tx.linkedIps, keyedHash, account.orgId);
}
