import type { KeyedHash } from '../shared/keyed-hash.ports.js';
import type { Random } from '../shared/random.ports.js';
import type { RecoveryCodeScope } from './identity-transaction.ports.js';
import { randomAlphanumeric } from './secrets.js';

/** How many single-use recovery codes an account holds (spec 5.5.1, section 8). */
const RECOVERY_CODE_COUNT = 10;
/** Keyed-hash purpose of stored recovery codes. */
export const RECOVERY_CODE_PURPOSE = 'recovery-code';

/** Recovery codes are shown as `xxxxx-xxxxx` but compared without case, spaces or dashes. */
export function canonicalRecoveryCode(code: string): string {
  return code.replace(/[\s-]/g, '').toLowerCase();
}

/** Ten new recovery codes replace the account's codes; the codes are returned to be shown once. */
export async function issueRecoveryCodes(
  deps: { random: Random; keyedHash: KeyedHash },
  tx: RecoveryCodeScope,
  accountId: string,
  now: Date,
): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = randomAlphanumeric(deps.random, 10).toLowerCase();
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  await tx.identity.secondFactors.replaceRecoveryCodes(
    accountId,
    codes.map((code) => deps.keyedHash.mac(RECOVERY_CODE_PURPOSE, canonicalRecoveryCode(code))),
    now,
  );
  return codes;
}

/**
 * Recovery codes come with the first second factor (spec 5.5.1): issued when the account holds no unused
 * code, else undefined (a second factor added later keeps the codes the owner already wrote down).
 */
export async function recoveryCodesForFirstFactor(
  deps: { random: Random; keyedHash: KeyedHash },
  tx: RecoveryCodeScope,
  accountId: string,
  now: Date,
): Promise<string[] | undefined> {
  const first = (await tx.identity.secondFactors.remainingRecoveryCodes(accountId)) === 0;
  return first ? issueRecoveryCodes(deps, tx, accountId, now) : undefined;
}
