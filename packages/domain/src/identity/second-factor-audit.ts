import type { AuditScope, AuditSource } from '../audit/audit.ports.js';

/** The account whose second factors change: mailed at its address, audited in its organisation's log. */
export interface SecondFactorOwner {
  email: string;
  orgId: string;
  /** A second factor is a lasting credential: only a verified address may add one. */
  emailVerifiedAt: Date | null;
}

/** What an `account.second_factor_changed` entry records: the change, never a secret or a code. */
export type SecondFactorChange =
  | { factor: 'totp'; change: 'enabled'; recovery_codes_issued: boolean }
  | { factor: 'totp'; change: 'disabled'; via: 'code' | 'recovery' }
  | { factor: 'recovery_codes'; change: 'replaced' }
  | { factor: 'passkey'; change: 'added'; passkey_id: string; name: string; recovery_codes_issued: boolean }
  | { factor: 'passkey'; change: 'removed'; passkey_id: string };

/** Appends the audit entry of a second-factor change inside the transaction that makes the change. */
export async function recordSecondFactorChange(
  tx: AuditScope,
  change: { accountId: string; orgId: string; source: AuditSource; at: Date; details: SecondFactorChange },
): Promise<void> {
  await tx.audit.record({
    ...change.source,
    orgId: change.orgId,
    action: 'account.second_factor_changed',
    target: `accounts/${change.accountId}/second-factors/${change.details.factor}`,
    details: change.details,
    at: change.at,
  });
}
