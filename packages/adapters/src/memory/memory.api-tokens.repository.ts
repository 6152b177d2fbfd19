import { type IdentityRepositories, isAfterKeyset, newestFirst } from '@svc/domain';
import type { IdentityTables } from './memory.identity.tables.js';

/** API tokens over the memory identity store's tables; rows are copied in and out. */
export function memoryApiTokenRepository(t: () => IdentityTables): IdentityRepositories['apiTokens'] {
  const copy = structuredClone;
  return {
    create: async (token) => void t().apiTokens.set(token.id, copy(token)),
    findBySecretHash: async (hash) => {
      for (const row of t().apiTokens.values()) if (row.secretHash === hash) return copy(row);
      return null;
    },
    findById: async (id) => {
      const row = t().apiTokens.get(id);
      return row === undefined ? null : copy(row);
    },
    listByAccount: async (accountId, page) =>
      [...t().apiTokens.values()]
        .filter(
          (row) => row.accountId === accountId && row.revokedAt === null && isAfterKeyset(row, page.after),
        )
        .sort(newestFirst)
        .slice(0, page.limit)
        .map((row) => copy(row)),
    revoke: async (accountId, id, at) => {
      const row = t().apiTokens.get(id);
      if (row === undefined || row.accountId !== accountId || row.revokedAt !== null) return false;
      row.revokedAt = at;
      return true;
    },
    touch: async (id, at) => {
      const row = t().apiTokens.get(id);
      if (row !== undefined) row.lastUsedAt = at;
    },
    revokeAll: async (accountId, at) => {
      let count = 0;
      for (const row of t().apiTokens.values()) {
        if (row.accountId !== accountId || row.revokedAt !== null) continue;
        row.revokedAt = at;
        count += 1;
      }
      return count;
    },
  };
}
