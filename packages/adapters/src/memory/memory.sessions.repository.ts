import { type IdentityRepositories, newestFirst } from '@svc/domain';
import type { IdentityTables } from './memory.identity.tables.js';
import { later } from './memory.identity.tables.js';

/** Sessions over the memory identity store's tables; rows are copied in and out. */
export function memorySessionRepository(t: () => IdentityTables): IdentityRepositories['sessions'] {
  const copy = structuredClone;
  return {
    create: async (session) => void t().sessions.set(session.id, copy(session)),
    findByTokenHash: async (hash, now) => {
      for (const row of t().sessions.values()) {
        if (row.revokedAt !== null) continue;
        const previousLive =
          row.previousTokenHash === hash &&
          row.previousValidUntil !== null &&
          row.previousValidUntil.getTime() > now.getTime();
        if (row.tokenHash === hash || previousLive) return copy(row);
      }
      return null;
    },
    findById: async (accountId, id) => {
      const row = t().sessions.get(id);
      return row === undefined || row.accountId !== accountId ? null : copy(row);
    },
    renew: async (id, expectedHash, next) => {
      const row = t().sessions.get(id);
      if (row === undefined || row.revokedAt !== null || row.tokenHash !== expectedHash) return false;
      row.previousTokenHash = row.tokenHash;
      row.previousValidUntil = next.previousValidUntil;
      row.tokenHash = next.tokenHash;
      row.tokenIssuedAt = next.issuedAt;
      return true;
    },
    touch: async (id, at) => {
      const row = t().sessions.get(id);
      if (row !== undefined) row.lastUsedAt = later(row.lastUsedAt, at);
    },
    liftRestriction: async (id) => {
      const row = t().sessions.get(id);
      if (row === undefined) return;
      row.restricted = false;
      row.strong = true;
    },
    revoke: async (accountId, id, at) => {
      const row = t().sessions.get(id);
      if (row === undefined || row.accountId !== accountId || row.revokedAt !== null) return false;
      row.revokedAt = at;
      return true;
    },
    revokeAllExcept: async (accountId, exceptId, at) => {
      let count = 0;
      for (const row of t().sessions.values()) {
        if (row.accountId !== accountId || row.revokedAt !== null || row.id === exceptId) continue;
        row.revokedAt = at;
        count += 1;
      }
      return count;
    },
    listLive: async (accountId, createdAfter, usedAfter) =>
      [...t().sessions.values()]
        .filter(
          (row) =>
            row.accountId === accountId &&
            row.revokedAt === null &&
            row.createdAt > createdAfter &&
            row.lastUsedAt > usedAfter,
        )
        .sort(newestFirst)
        .map((row) => copy(row)),
  };
}
