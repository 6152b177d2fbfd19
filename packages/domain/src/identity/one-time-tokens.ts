import { DomainError } from '../shared/domain-error.js';
import type { OneTimeTokenPurpose, OneTimeTokenRecord } from './identity.records.js';
import type { OneTimeTokenScope } from './identity-transaction.ports.js';

/**
 * Checks and consumes a single-use emailed token inside a transaction: 400 invalid_token when unknown,
 * token_expired past its lifetime, token_used when already consumed (also when a concurrent request won).
 */
export async function consumeOneTimeToken(
  identity: OneTimeTokenScope['identity'],
  purpose: OneTimeTokenPurpose,
  hash: string,
  now: Date,
): Promise<OneTimeTokenRecord> {
  const token = await identity.oneTimeTokens.find(purpose, hash);
  if (token === null) throw new DomainError('invalid_token', 'This link is not valid.');
  if (token.usedAt !== null) throw new DomainError('token_used', 'This link was already used.');
  if (token.expiresAt.getTime() <= now.getTime()) {
    throw new DomainError('token_expired', 'This link has expired; ask for a new one.');
  }
  if (!(await identity.oneTimeTokens.consume(purpose, hash, now))) {
    throw new DomainError('token_used', 'This link was already used.');
  }
  return token;
}
