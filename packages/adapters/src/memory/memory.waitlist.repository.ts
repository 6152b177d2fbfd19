import type { IdentityRepositories } from '@svc/domain';
import type { IdentityTables } from './memory.identity.tables.js';

/** The waitlist over the memory identity store's tables; rows are copied in and out. */
export function memoryWaitlistRepository(t: () => IdentityTables): IdentityRepositories['waitlist'] {
  const copy = structuredClone;
  return {
    upsert: async (email, at) => {
      const existing = t().waitlist.get(email);
      if (existing !== undefined) return copy(existing);
      const row = { email, createdAt: at, confirmedAt: null };
      t().waitlist.set(email, row);
      return copy(row);
    },
    confirm: async (email, at) => {
      const row = t().waitlist.get(email);
      if (row !== undefined && row.confirmedAt === null) row.confirmedAt = at;
    },
  };
}
