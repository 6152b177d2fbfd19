import type { IdentityRepositories } from '@svc/domain';
import type { IdentityTables } from './memory.identity.tables.js';

/** Emailed one-time tokens over the memory identity store's tables; rows are copied in and out. */
export function memoryOneTimeTokenRepository(t: () => IdentityTables): IdentityRepositories['oneTimeTokens'] {
  const copy = structuredClone;
  return {
    create: async (token) => void t().oneTimeTokens.set(`${token.purpose}:${token.hash}`, copy(token)),
    find: async (purpose, hash) => {
      const row = t().oneTimeTokens.get(`${purpose}:${hash}`);
      return row === undefined ? null : copy(row);
    },
    consume: async (purpose, hash, at) => {
      const row = t().oneTimeTokens.get(`${purpose}:${hash}`);
      if (row === undefined || row.usedAt !== null) return false;
      row.usedAt = at;
      return true;
    },
    expireUnused: async (purpose, email, at) => {
      for (const row of t().oneTimeTokens.values()) {
        if (row.purpose === purpose && row.email === email && row.usedAt === null && row.expiresAt > at)
          row.expiresAt = at;
      }
    },
    hasLive: async (purpose, email, now) =>
      [...t().oneTimeTokens.values()].some(
        (row) => row.purpose === purpose && row.email === email && row.usedAt === null && row.expiresAt > now,
      ),
  };
}
