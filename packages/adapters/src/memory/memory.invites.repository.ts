import { type IdentityRepositories, newestFirst } from '@svc/domain';
import type { IdentityTables } from './memory.identity.tables.js';

/** Invite codes over the memory identity store's tables; rows are copied in and out. */
export function memoryInviteRepository(t: () => IdentityTables): IdentityRepositories['invites'] {
  const copy = structuredClone;
  return {
    create: async (invite) => void t().invites.set(invite.id, copy(invite)),
    list: async () => [...t().invites.values()].sort(newestFirst).map((row) => copy(row)),
    consumeUse: async (codeHash, now) => {
      for (const row of t().invites.values()) {
        if (row.codeHash !== codeHash) continue;
        const live =
          row.revokedAt === null &&
          row.uses < row.maxUses &&
          (row.expiresAt === null || row.expiresAt.getTime() > now.getTime());
        if (!live) return false;
        row.uses += 1;
        return true;
      }
      return false;
    },
    revoke: async (codeHashOrId, at) => {
      for (const row of t().invites.values()) {
        if ((row.codeHash === codeHashOrId || row.id === codeHashOrId) && row.revokedAt === null) {
          row.revokedAt = at;
          return true;
        }
      }
      return false;
    },
  };
}
