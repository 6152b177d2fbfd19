import {
  type AccountRecord,
  type IdentityRepositories,
  type MembershipRow,
  type OrganisationRecord,
  roleOf,
} from '@svc/domain';
import type { IdentityTables } from './memory.identity.tables.js';

/** The signup's membership: the new account in its own organisation, with the role it was made with. */
function firstMembership(organisation: OrganisationRecord, account: AccountRecord): MembershipRow {
  return {
    orgId: organisation.id,
    accountId: account.id,
    role: roleOf(account.role),
    createdAt: account.createdAt,
  };
}

/**
 * Ends an erased account's memberships; only the organisations it owns go with it (ADR 0047): one it handed
 * over keeps its name.
 */
function eraseMemberships(tables: IdentityTables, id: string): void {
  for (const [key, membership] of tables.memberships) {
    if (membership.accountId !== id) continue;
    const organisation = tables.organisations.get(membership.orgId);
    if (organisation !== undefined && membership.role === 'owner') organisation.name = 'erased';
    tables.memberships.delete(key);
  }
}

/** Accounts and their organisations over the memory identity store's tables; rows are copied in and out. */
export function memoryAccountRepository(t: () => IdentityTables): IdentityRepositories['accounts'] {
  const copy = structuredClone;
  return {
    createWithOrganisation: async (organisation, account) => {
      for (const existing of t().accounts.values()) if (existing.email === account.email) return false;
      t().organisations.set(organisation.id, copy(organisation));
      t().accounts.set(account.id, { ...copy(account), accountExistsMailAt: null });
      t().memberships.set(`${organisation.id}/${account.id}`, firstMembership(organisation, account));
      return true;
    },
    findById: async (id) => {
      const row = t().accounts.get(id);
      if (row === undefined) return null;
      const { accountExistsMailAt: _, erasureStartedAt: __, ...account } = copy(row);
      return account;
    },
    findByEmail: async (email) => {
      for (const row of t().accounts.values()) {
        if (row.email !== email) continue;
        const { accountExistsMailAt: _, erasureStartedAt: __, ...account } = copy(row);
        return account;
      }
      return null;
    },
    listOwners: async (orgId) =>
      [...t().accounts.values()]
        .filter((row) => t().memberships.get(`${orgId}/${row.id}`)?.role === 'owner')
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
        .map((row) => {
          const { accountExistsMailAt: _, erasureStartedAt: __, ...account } = copy(row);
          return account;
        }),
    markEmailVerified: async (id, at) => {
      const row = t().accounts.get(id);
      if (row === undefined || row.emailVerifiedAt !== null) return false;
      row.emailVerifiedAt = at;
      return true;
    },
    setPasswordHash: async (id, passwordHash) => {
      const row = t().accounts.get(id);
      if (row !== undefined) row.passwordHash = passwordHash;
    },
    setOperator: async (id, isAdmin) => {
      const row = t().accounts.get(id);
      if (row !== undefined) row.isAdmin = isAdmin;
    },
    claimAccountExistsMail: async (id, at, notBefore) => {
      const row = t().accounts.get(id);
      if (row === undefined) return false;
      if (row.accountExistsMailAt !== null && row.accountExistsMailAt.getTime() > notBefore.getTime())
        return false;
      row.accountExistsMailAt = at;
      return true;
    },
    startDeletion: async (id, requestedAt, dueAt) => {
      const row = t().accounts.get(id);
      if (row === undefined || row.deletionRequestedAt !== null) return false;
      row.deletionRequestedAt = requestedAt;
      row.deletionDueAt = dueAt;
      return true;
    },
    cancelDeletion: async (id) => {
      const row = t().accounts.get(id);
      if (row === undefined || row.deletionRequestedAt === null) return 'not_pending';
      if ((row.erasureStartedAt ?? null) !== null) return 'erasure_started';
      row.deletionRequestedAt = null;
      row.deletionDueAt = null;
      return 'canceled';
    },
    claimDueErasure: async (now) => {
      for (const row of t().accounts.values()) {
        if (row.deletionDueAt === null || row.deletionDueAt.getTime() > now.getTime()) continue;
        if ((row.erasureStartedAt ?? null) !== null) continue;
        row.erasureStartedAt = now;
        const { accountExistsMailAt: _, erasureStartedAt: __, ...account } = copy(row);
        return account;
      }
      return null;
    },
    erase: async (id) => {
      const row = t().accounts.get(id);
      if (row === undefined) return;
      for (const [key, session] of t().sessions) if (session.accountId === id) t().sessions.delete(key);
      for (const [key, token] of t().apiTokens) if (token.accountId === id) t().apiTokens.delete(key);
      for (const [key, passkey] of t().passkeys) if (passkey.accountId === id) t().passkeys.delete(key);
      for (const [key, token] of t().oneTimeTokens) if (token.accountId === id) t().oneTimeTokens.delete(key);
      t().totp.delete(id);
      t().recoveryCodes.delete(id);
      row.email = `erased-${id}@erased.invalid`;
      row.passwordHash = null;
      eraseMemberships(t(), id);
    },
  };
}
