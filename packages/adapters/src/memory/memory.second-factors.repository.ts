import type { IdentityRepositories } from '@svc/domain';
import type { IdentityTables } from './memory.identity.tables.js';

/** TOTP and recovery codes over the memory identity store's tables; rows are copied in and out. */
export function memorySecondFactorRepository(t: () => IdentityTables): IdentityRepositories['secondFactors'] {
  const copy = structuredClone;
  return {
    totp: async (accountId) =>
      copy(t().totp.get(accountId) ?? { secret: null, pendingSecret: null, enabledAt: null, lastStep: null }),
    setPendingTotp: async (accountId, sealedSecret) => {
      const state = t().totp.get(accountId) ?? {
        secret: null,
        pendingSecret: null,
        enabledAt: null,
        lastStep: null,
      };
      t().totp.set(accountId, { ...state, pendingSecret: sealedSecret });
    },
    enableTotp: async (accountId, at, step) => {
      const state = t().totp.get(accountId);
      if (state?.pendingSecret == null) return;
      t().totp.set(accountId, {
        secret: state.pendingSecret,
        pendingSecret: null,
        enabledAt: at,
        lastStep: step,
      });
    },
    disableTotp: async (accountId) => {
      const state = t().totp.get(accountId);
      if (state !== undefined)
        t().totp.set(accountId, { ...state, secret: null, pendingSecret: null, enabledAt: null });
    },
    acceptTotpStep: async (accountId, step) => {
      const state = t().totp.get(accountId);
      if (state === undefined || (state.lastStep !== null && state.lastStep >= step)) return false;
      state.lastStep = step;
      return true;
    },
    replaceRecoveryCodes: async (accountId, codeHashes) => {
      t().recoveryCodes.set(
        accountId,
        codeHashes.map((codeHash) => ({ codeHash, usedAt: null })),
      );
    },
    consumeRecoveryCode: async (accountId, codeHash, at) => {
      const code = t()
        .recoveryCodes.get(accountId)
        ?.find((entry) => entry.codeHash === codeHash && entry.usedAt === null);
      if (code === undefined) return false;
      code.usedAt = at;
      return true;
    },
    remainingRecoveryCodes: async (accountId) =>
      (t().recoveryCodes.get(accountId) ?? []).filter((entry) => entry.usedAt === null).length,
    setMfa: async (accountId, mfa) => {
      const row = t().accounts.get(accountId);
      if (row !== undefined) row.mfa = mfa;
    },
  };
}
