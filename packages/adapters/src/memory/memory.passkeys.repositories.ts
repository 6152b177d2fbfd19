import type {
  AccountRecord,
  PasskeyRecord,
  PasskeyRepository,
  WebAuthnChallengeRepository,
  WebAuthnChallengeRow,
} from '@svc/domain';

/** The tables of the memory identity store that passkeys live in (and the accounts they belong to). */
export interface MemoryPasskeyTables {
  accounts: Map<string, AccountRecord>;
  passkeys: Map<string, PasskeyRecord>;
  webauthnChallenges: Map<string, WebAuthnChallengeRow>;
}

const oldestFirst = (a: PasskeyRecord, b: PasskeyRecord) =>
  a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id);

/** Passkeys over the memory identity store's tables; rows are copied in and out. */
export function memoryPasskeyRepository(t: () => MemoryPasskeyTables): PasskeyRepository {
  const copy = structuredClone;
  const ofAccount = (accountId: string) =>
    [...t().passkeys.values()].filter((row) => row.accountId === accountId).sort(oldestFirst);
  return {
    create: async (passkey) => {
      for (const row of t().passkeys.values()) if (row.credentialId === passkey.credentialId) return false;
      t().passkeys.set(passkey.id, copy(passkey));
      return true;
    },
    listByAccount: async (accountId) => ofAccount(accountId).map((row) => copy(row)),
    findByCredentialId: async (credentialId) => {
      for (const row of t().passkeys.values()) if (row.credentialId === credentialId) return copy(row);
      return null;
    },
    rename: async (accountId, id, name) => {
      const row = t().passkeys.get(id);
      if (row === undefined || row.accountId !== accountId) return null;
      row.name = name;
      return copy(row);
    },
    recordUse: async (id, counter, at) => {
      const row = t().passkeys.get(id);
      if (row === undefined) return false;
      if (!(counter > row.counter || (counter === 0 && row.counter === 0))) return false;
      row.counter = counter;
      row.lastUsedAt = at;
      return true;
    },
    // Memory transactions run one at a time, so reading is locking enough.
    lockCredentials: async (accountId) => {
      const account = t().accounts.get(accountId);
      if (account === undefined) return null;
      return {
        hasPassword: account.passwordHash !== null,
        passkeyIds: ofAccount(accountId).map((row) => row.id),
      };
    },
    delete: async (accountId, id) => {
      const row = t().passkeys.get(id);
      if (row === undefined || row.accountId !== accountId) return false;
      t().passkeys.delete(id);
      return true;
    },
  };
}

/** WebAuthn challenges over the memory identity store's tables. */
export function memoryWebAuthnChallengeRepository(t: () => MemoryPasskeyTables): WebAuthnChallengeRepository {
  return {
    create: async (challenge) => void t().webauthnChallenges.set(challenge.challengeHash, { ...challenge }),
    consume: async (ceremony, challengeHash, sessionId, now) => {
      const row = t().webauthnChallenges.get(challengeHash);
      if (
        row === undefined ||
        row.ceremony !== ceremony ||
        row.sessionId !== sessionId ||
        row.usedAt !== null ||
        row.expiresAt.getTime() <= now.getTime()
      )
        return null;
      row.usedAt = now;
      return { ...row };
    },
    prune: async (before) => {
      for (const [hash, row] of t().webauthnChallenges)
        if (row.expiresAt.getTime() < before.getTime()) t().webauthnChallenges.delete(hash);
    },
  };
}
