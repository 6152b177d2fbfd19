import type { MailScope } from '../mail/mail-queue.ports.js';
import type { MailMessage } from '../mail/mailer.ports.js';
import { DomainError } from '../shared/domain-error.js';
import { normaliseEmail } from './account-view.js';
import type { IdentityDependencies } from './identity.dependencies.js';
import type { AttemptLimit, AttemptLimiter } from './identity.ports.js';
import type { OneTimeTokenPurpose } from './identity.records.js';
import { AttemptLimits } from './identity.settings.js';
import type { OneTimeTokenScope } from './identity-transaction.ports.js';
import { newOpaqueToken, SecretPurpose } from './secrets.js';

/** Takes one attempt of `limit` for `key`; false instead of 429 when the limit is spent. */
async function withinLimit(limiter: AttemptLimiter, limit: AttemptLimit, key: string): Promise<boolean> {
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
async function linkStillOwed(
  tx: OneTimeTokenScope,
  purpose: OneTimeTokenPurpose,
  email: string,
  withinAddressLimit: boolean,
  now: Date,
): Promise<boolean> {
  return withinAddressLimit || !(await tx.identity.oneTimeTokens.hasLive(purpose, email, now));
}

/** What differs between the emailed links (password reset, account recovery); the flow is the same. */
export interface MailedLink {
  purpose: 'reset' | 'recovery';
  /** Prefix of the opaque token, so a leaked one says what it is (`rst_`, `rec_`). */
  tokenPrefix: string;
  /** The address's own limit (the client network's is shared: {@link AttemptLimits.resetPerIp}). */
  addressLimit: AttemptLimit;
  ttlMs: number;
  mail: (email: string, token: string, dashboardUrl: string) => MailMessage;
}

/**
 * Emails a one-time link when the address has an account; the answer is the same either way. The client's
 * network is limited first (429 rate_limited), the address only as {@link linkStillOwed} allows.
 */
export async function mailOneTimeLink(
  deps: IdentityDependencies<OneTimeTokenScope & MailScope>,
  link: MailedLink,
  rawEmail: string,
  clientNetwork: string,
): Promise<void> {
  const email = normaliseEmail(rawEmail);
  await deps.limiter.consume(AttemptLimits.resetPerIp, clientNetwork);
  const withinAddressLimit = await withinLimit(deps.limiter, link.addressLimit, email);
  const account = await deps.store.accounts.findByEmail(email);
  if (account === null) return;
  const now = deps.clock.now();
  const token = newOpaqueToken(deps.random, link.tokenPrefix);
  await deps.uow.run(async (tx) => {
    if (!(await linkStillOwed(tx, link.purpose, email, withinAddressLimit, now))) return;
    await tx.identity.oneTimeTokens.create({
      purpose: link.purpose,
      hash: deps.keyedHash.mac(SecretPurpose.oneTime, token),
      accountId: account.id,
      email,
      createdAt: now,
      expiresAt: new Date(now.getTime() + link.ttlMs),
      usedAt: null,
    });
    await tx.mail.enqueue(link.mail(email, token, deps.settings.dashboardUrl));
  });
}
