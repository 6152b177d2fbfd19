import type {
  KeysetPage,
  ListReportKind,
  ListReportRecord,
  ListReportRepository,
  ListReportStatus,
  TriagePage,
} from '@svc/domain';
import { type KeysetOrder, keysetPage } from './postgres-keyset-page.js';
import type { Queryable } from './postgres-queryable.js';

interface ListReportSqlRow {
  id: string;
  org_id: string;
  profile_id: string;
  account_id: string;
  domain: string;
  list_id: number;
  /** bigint arrives as text from pg. */
  list_version: string | null;
  kind: ListReportKind;
  note: string;
  status: ListReportStatus;
  resolution_note: string;
  resolved_at: Date | null;
  created_at: Date;
  triage_due_at: Date;
}

function listReportOf(row: ListReportSqlRow): ListReportRecord {
  return {
    id: row.id,
    orgId: row.org_id,
    profileId: row.profile_id,
    accountId: row.account_id,
    domain: row.domain,
    listId: row.list_id,
    listVersion: row.list_version === null ? null : Number(row.list_version),
    kind: row.kind,
    note: row.note,
    status: row.status,
    resolutionNote: row.resolution_note,
    resolvedAt: row.resolved_at,
    createdAt: row.created_at,
    triageDueAt: row.triage_due_at,
  };
}

const COLUMNS =
  'id, org_id, profile_id, account_id, domain, list_id, list_version, kind, note, status, resolution_note, resolved_at, created_at, triage_due_at';

/**
 * Class of the transaction-scoped advisory locks that serialise one account's reports (the second key is a
 * hash of the account id); the two-key form does not overlap the one-key locks of migrations.
 */
const REPORTER_LOCK_CLASS = 4_242_002;

const NEWEST: KeysetOrder<'createdAt'> = { column: 'created_at', field: 'createdAt', idType: 'uuid' };

/** List reports on PostgreSQL (0007_devices_list_reports_audit.sql). */
export class PostgresListReportRepository implements ListReportRepository {
  constructor(private readonly db: Queryable) {}

  async insert(report: ListReportRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO list_reports (${COLUMNS})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      [
        report.id,
        report.orgId,
        report.profileId,
        report.accountId,
        report.domain,
        report.listId,
        report.listVersion,
        report.kind,
        report.note,
        report.status,
        report.resolutionNote,
        report.resolvedAt,
        report.createdAt,
        report.triageDueAt,
      ],
    );
  }

  async recentByAccount(accountId: string, since: Date, limit: number): Promise<Date[]> {
    // Held until the transaction ends: a second report of the account waits here and then counts the first.
    await this.db.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [REPORTER_LOCK_CLASS, accountId]);
    const result = await this.db.query<{ created_at: Date }>(
      `SELECT created_at FROM list_reports
       WHERE account_id = $1 AND created_at > $2
       ORDER BY created_at DESC
       LIMIT $3`,
      [accountId, since, limit],
    );
    return result.rows.map((row) => row.created_at);
  }

  async list(orgId: string, profileId: string, page: KeysetPage): Promise<ListReportRecord[]> {
    const tail = keysetPage(NEWEST, 3, page);
    const result = await this.db.query<ListReportSqlRow>(
      `SELECT ${COLUMNS} FROM list_reports
       WHERE org_id = $1 AND profile_id = $2
         ${tail.sql}`,
      [orgId, profileId, ...tail.values],
    );
    return result.rows.map(listReportOf);
  }

  async triageQueue(status: ListReportStatus | undefined, page: TriagePage): Promise<ListReportRecord[]> {
    // Three keys, so not keysetPage's two: reports due together (a weekend's) come in the order they were filed.
    const after = page.after;
    const result = await this.db.query<ListReportSqlRow>(
      `SELECT ${COLUMNS} FROM list_reports
       WHERE ($1::text IS NULL OR status = $1)
         AND ($2::timestamptz IS NULL
              OR (triage_due_at, created_at, id) > ($2::timestamptz, $3::timestamptz, $4::uuid))
       ORDER BY triage_due_at, created_at, id
       LIMIT $5`,
      [status ?? null, after?.triageDueAt ?? null, after?.createdAt ?? null, after?.id ?? null, page.limit],
    );
    return result.rows.map(listReportOf);
  }

  async findForTriage(id: string): Promise<ListReportRecord | null> {
    const result = await this.db.query<ListReportSqlRow>(
      `SELECT ${COLUMNS} FROM list_reports WHERE id = $1 FOR UPDATE`,
      [id],
    );
    const row = result.rows[0];
    return row === undefined ? null : listReportOf(row);
  }

  async resolve(
    id: string,
    status: 'accepted' | 'rejected',
    resolutionNote: string,
    at: Date,
  ): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE list_reports SET status = $2, resolution_note = $3, resolved_at = $4
       WHERE id = $1 AND status = 'open'`,
      [id, status, resolutionNote, at],
    );
    return result.rowCount === 1;
  }
}
