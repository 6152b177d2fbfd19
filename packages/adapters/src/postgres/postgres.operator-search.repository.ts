import type {
  KeysetPage,
  OperatorAccountRow,
  OperatorProfileRow,
  OperatorSearchRepository,
} from '@svc/domain';
import { keysetPage } from './postgres-keyset-page.js';
import type { Queryable } from './postgres-queryable.js';

interface AccountSqlRow {
  id: string;
  org_id: string;
  email: string;
  role: string;
  is_admin: boolean;
  email_verified_at: Date | null;
  created_at: Date;
  deletion_due_at: Date | null;
}

interface ProfileSqlRow {
  id: string;
  org_id: string;
  name: string;
  owner_email: string | null;
  suspended: boolean;
  created_at: Date;
}

/**
 * Operator search on PostgreSQL. `strpos` on the lower-cased column rather than LIKE, so that `%` and `_` in
 * the text are plain characters. Each search reads its matches in a subquery, so the keyset tail's `created_at`
 * and `id` name the match's own columns.
 */
export class PostgresOperatorSearchRepository implements OperatorSearchRepository {
  constructor(private readonly db: Queryable) {}

  async accounts(text: string, page: KeysetPage): Promise<OperatorAccountRow[]> {
    const tail = keysetPage({ column: 'created_at', field: 'createdAt', idType: 'uuid' }, 2, page);
    const result = await this.db.query<AccountSqlRow>(
      `SELECT * FROM (
         SELECT id, org_id, email, role, is_admin, email_verified_at, created_at, deletion_due_at
           FROM accounts
          WHERE strpos(lower(email), $1) > 0 OR id::text = $1 OR org_id::text = $1
       ) AS found
       WHERE true ${tail.sql}`,
      [text, ...tail.values],
    );
    return result.rows.map((row) => ({
      id: row.id,
      orgId: row.org_id,
      email: row.email,
      role: row.role,
      isAdmin: row.is_admin,
      emailVerifiedAt: row.email_verified_at,
      createdAt: row.created_at,
      deletionDueAt: row.deletion_due_at,
    }));
  }

  async profiles(text: string, page: KeysetPage): Promise<OperatorProfileRow[]> {
    const tail = keysetPage({ column: 'created_at', field: 'createdAt', idType: 'text' }, 2, page);
    const result = await this.db.query<ProfileSqlRow>(
      `SELECT * FROM (
         SELECT p.id, p.org_id, p.name, p.suspended, p.created_at,
                (SELECT a.email FROM accounts a WHERE a.org_id = p.org_id AND a.role = 'owner'
                  ORDER BY a.created_at, a.id LIMIT 1) AS owner_email
           FROM profiles p
          WHERE p.tombstoned_at IS NULL
            AND (strpos(lower(p.name), $1) > 0 OR p.id = $1 OR p.org_id::text = $1
                 OR p.org_id IN (SELECT org_id FROM accounts WHERE strpos(lower(email), $1) > 0))
       ) AS found
       WHERE true ${tail.sql}`,
      [text, ...tail.values],
    );
    return result.rows.map((row) => ({
      id: row.id,
      orgId: row.org_id,
      name: row.name,
      ownerEmail: row.owner_email,
      suspended: row.suspended,
      createdAt: row.created_at,
    }));
  }
}
