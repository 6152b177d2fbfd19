import { endLinksOfUnverifiedPast } from '../linked-ips/linked-ip-proof.js';
import type { KeyedHash } from '../shared/keyed-hash.ports.js';
import type { AccountRecord } from './identity.records.js';
import type { UnverifiedPastScope } from './identity-transaction.ports.js';

/** The rule lives in `shared/` so that contexts identity itself calls (linked IPs) apply it without a cycle. */
export { assertEmailVerified } from '../shared/email-verified.js';

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
