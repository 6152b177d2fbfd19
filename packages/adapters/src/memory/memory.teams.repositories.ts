import type { IdentityRepositories } from '@svc/domain';
import type { IdentityTables } from './memory.identity.tables.js';

const keyOf = (orgId: string, accountId: string) => `${orgId}/${accountId}`;
const oldestFirst = (a: { createdAt: Date }, b: { createdAt: Date }) =>
  a.createdAt.getTime() - b.createdAt.getTime();

/** Memberships over the memory identity store's tables; rows are copied in and out. */
export function memoryMembershipRepository(t: () => IdentityTables): IdentityRepositories['memberships'] {
  const copy = structuredClone;
  return {
    find: async (orgId, accountId) => {
      const row = t().memberships.get(keyOf(orgId, accountId));
      return row === undefined ? null : copy(row);
    },
    listByOrganisation: async (orgId) =>
      [...t().memberships.values()]
        .filter((row) => row.orgId === orgId)
        .sort(oldestFirst)
        .map((row) => ({ ...copy(row), email: t().accounts.get(row.accountId)?.email ?? '' })),
    listByAccount: async (accountId) =>
      [...t().memberships.values()]
        .filter((row) => row.accountId === accountId)
        .sort(oldestFirst)
        .map((row) => ({ ...copy(row), orgName: t().organisations.get(row.orgId)?.name ?? '' })),
    add: async (membership) => {
      const key = keyOf(membership.orgId, membership.accountId);
      if (t().memberships.has(key)) return false;
      t().memberships.set(key, copy(membership));
      return true;
    },
    setRole: async (orgId, accountId, role) => {
      const row = t().memberships.get(keyOf(orgId, accountId));
      if (row === undefined) return false;
      row.role = role;
      return true;
    },
    remove: async (orgId, accountId) => t().memberships.delete(keyOf(orgId, accountId)),
    count: async (orgId) => [...t().memberships.values()].filter((row) => row.orgId === orgId).length,
  };
}

/** Organisation invitations over the memory identity store's tables. */
export function memoryOrgInvitationRepository(
  t: () => IdentityTables,
): IdentityRepositories['orgInvitations'] {
  const copy = structuredClone;
  const live = (row: { acceptedAt: Date | null; revokedAt: Date | null; expiresAt: Date }, now: Date) =>
    row.acceptedAt === null && row.revokedAt === null && row.expiresAt.getTime() > now.getTime();
  return {
    create: async (invitation) => void t().orgInvitations.set(invitation.id, copy(invitation)),
    findByTokenHash: async (hash) => {
      for (const row of t().orgInvitations.values()) if (row.tokenHash === hash) return copy(row);
      return null;
    },
    listLive: async (orgId, now) =>
      [...t().orgInvitations.values()]
        .filter((row) => row.orgId === orgId && live(row, now))
        .sort((a, b) => oldestFirst(b, a))
        .map((row) => copy(row)),
    accept: async (id, at) => {
      const row = t().orgInvitations.get(id);
      if (row === undefined || !live(row, at)) return false;
      row.acceptedAt = at;
      return true;
    },
    revoke: async (orgId, id, at) => {
      const row = t().orgInvitations.get(id);
      if (row === undefined || row.orgId !== orgId || !live(row, at)) return false;
      row.revokedAt = at;
      return true;
    },
  };
}

/** The credentials of members over the memory identity store's tables. */
export function memoryMemberAccessRepository(t: () => IdentityTables): IdentityRepositories['memberAccess'] {
  return {
    setActingOrganisation: async (sessionId, orgId) => {
      const row = t().sessions.get(sessionId);
      if (row !== undefined) row.actingOrgId = orgId;
    },
    resetActingOrganisation: async (accountId, orgId) => {
      for (const row of t().sessions.values()) {
        if (row.accountId === accountId && row.actingOrgId === orgId) row.actingOrgId = null;
      }
    },
    revokeTokensOfOrganisation: async (accountId, orgId, at) => {
      let count = 0;
      for (const row of t().apiTokens.values()) {
        if (row.accountId !== accountId || row.orgId !== orgId || row.revokedAt !== null) continue;
        row.revokedAt = at;
        count += 1;
      }
      return count;
    },
  };
}
