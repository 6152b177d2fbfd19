import {
  type AccountRecord,
  isAfterKeyset,
  newestFirst,
  type OperatorSearchRepository,
  type ProfileRecord,
} from '@svc/domain';

/** Operator search over the memory stores' accounts and live profiles, as the PostgreSQL adapter reads them. */
export function memoryOperatorSearch(
  accounts: () => AccountRecord[],
  profiles: () => ProfileRecord[],
): OperatorSearchRepository {
  const emailHas = (account: AccountRecord, text: string) => account.email.toLowerCase().includes(text);
  return {
    accounts: async (text, page) =>
      accounts()
        .filter((row) => emailHas(row, text) || row.id === text || row.orgId === text)
        .filter((row) => isAfterKeyset(row, page.after))
        .sort(newestFirst)
        .slice(0, page.limit)
        .map((row) => ({
          id: row.id,
          orgId: row.orgId,
          email: row.email,
          role: row.role,
          isAdmin: row.isAdmin,
          emailVerifiedAt: row.emailVerifiedAt,
          createdAt: row.createdAt,
          deletionDueAt: row.deletionDueAt,
        })),
    profiles: async (text, page) => {
      const all = accounts();
      const orgsByEmail = new Set(all.filter((row) => emailHas(row, text)).map((row) => row.orgId));
      const ownerOf = (orgId: string) =>
        all
          .filter((row) => row.orgId === orgId && row.role === 'owner')
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))[0]
          ?.email ?? null;
      return profiles()
        .filter(
          (row) =>
            row.name.toLowerCase().includes(text) ||
            row.id === text ||
            row.orgId === text ||
            orgsByEmail.has(row.orgId),
        )
        .filter((row) => isAfterKeyset(row, page.after))
        .sort(newestFirst)
        .slice(0, page.limit)
        .map((row) => ({
          id: row.id,
          orgId: row.orgId,
          name: row.name,
          ownerEmail: ownerOf(row.orgId),
          suspended: row.suspended,
          createdAt: row.createdAt,
        }));
    },
  };
}
