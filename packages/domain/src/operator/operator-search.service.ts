import { pageNewestFirst } from '../pagination/keyset.js';
import type { CursorSealer } from '../pagination/pagination.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import type { OperatorSearchRepository } from './operator-search.ports.js';
import type {
  OperatorAccountList,
  OperatorProfileList,
  OperatorSearchQuery,
} from './operator-search.schemas.js';

/** What searching uses of a transaction. */
interface OperatorSearchScope {
  operatorSearch: OperatorSearchRepository;
}

/** What the operator search is built from. */
export interface OperatorSearchDependencies {
  uow: ScopedUnitOfWork<OperatorSearchScope>;
  cursors: CursorSealer;
}

/**
 * Finding accounts and profiles of any organisation by part of an email or profile name, or by an id, so an
 * operator acting on a support request needs no database access (ROUTES.md "Operator"). A cursor is bound to
 * its search text: it pages through the same search only.
 */
export class OperatorSearchService {
  constructor(private readonly deps: OperatorSearchDependencies) {}

  async accounts(query: OperatorSearchQuery): Promise<OperatorAccountList> {
    const text = query.q.toLowerCase();
    const page = await pageNewestFirst(
      this.deps.cursors,
      `admin-accounts:${text}`,
      query.limit,
      query.cursor,
      (keyset) => this.deps.uow.run((tx) => tx.operatorSearch.accounts(text, keyset)),
    );
    return {
      accounts: page.items.map((row) => ({
        id: row.id,
        org_id: row.orgId,
        email: row.email,
        role: row.role,
        is_admin: row.isAdmin,
        email_verified: row.emailVerifiedAt !== null,
        created_at: row.createdAt.toISOString(),
        deletion_due_at: row.deletionDueAt?.toISOString() ?? null,
      })),
      next_cursor: page.nextCursor,
    };
  }

  async profiles(query: OperatorSearchQuery): Promise<OperatorProfileList> {
    const text = query.q.toLowerCase();
    const page = await pageNewestFirst(
      this.deps.cursors,
      `admin-profiles:${text}`,
      query.limit,
      query.cursor,
      (keyset) => this.deps.uow.run((tx) => tx.operatorSearch.profiles(text, keyset)),
    );
    return {
      profiles: page.items.map((row) => ({
        id: row.id,
        org_id: row.orgId,
        name: row.name,
        owner_email: row.ownerEmail,
        suspended: row.suspended,
        created_at: row.createdAt.toISOString(),
      })),
      next_cursor: page.nextCursor,
    };
  }
}
