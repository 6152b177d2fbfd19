import { DomainError } from '../shared/domain-error.js';
import type { AttemptLimit, AttemptLimiter } from './identity.ports.js';
import type { OneTimeTokenPurpose } from './identity.records.js';
import type { OneTimeTokenScope } from './identity-transaction.ports.js';

/** Takes one attempt of `limit` for `key`; false instead of 429 when the limit is spent. */
export async function withinLimit(
  limiter: AttemptLimiter,
  limit: AttemptLimit,
  key: string,
): Promise<boolean> {
  try {
    await limiter.consume(limit, key);
    return true;
  } catch (error) {
    if (error instanceof DomainError && error.code === 'rate_limited') return false;
    throw error;
  }
}

/**
 * Whether an emailed link (password reset, account recovery) goes out for an address whose own limit was
 * reached. Anyone may ask for an address's link, so the address's limit must not become a way to block its
 * owner: over it, the answer stays the same (202) and no new mail is sent only while an earlier link to that
 * address still works; when none does (the last one was used or expired), one is sent anyway. The owner thus
 * always finds a working link in the mailbox, while the mails a stranger can cause stay bounded by the limit.
 */
export async function linkStillOwed(
  tx: OneTimeTokenScope,
  purpose: OneTimeTokenPurpose,
  email: string,
  withinAddressLimit: boolean,
  now: Date,
): Promise<boolean> {
  return withinAddressLimit || !(await tx.identity.oneTimeTokens.hasLive(purpose, email, now));
}
