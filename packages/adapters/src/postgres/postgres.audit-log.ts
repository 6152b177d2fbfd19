import type {
  AuditAction,
  AuditEntry,
  AuditEntryRecord,
  AuditLogStore,
  AuditPageQuery,
  AuditWriter,
} from '@svc/domain';
import { type KeysetOrder, keysetPage } from './postgres-keyset-page.js';
import type { Queryable } from './postgres-queryable.js';

interface AuditSqlRow {
  /** bigint arrives as text from pg. */
  id: string;
  org_id: string;
  actor: string;
  action: AuditAction;
  target: string;
  details: Record<string, unknown>;
  at: Date;
  client_ip: string | null;
  request_id: string | null;
}

function auditEntryOf(row: AuditSqlRow): AuditEntryRecord {
  return {
    id: row.id,
    orgId: row.org_id,
    actor: row.actor,
    action: row.action,
    target: row.target,
    details: row.details,
    at: row.at,
    clientIp: row.client_ip,
    requestId: row.request_id,
  };
}

/** Appends audit entries on the caller's transaction client (0007_devices_list_reports_audit.sql). */
export class PostgresAuditWriter implements AuditWriter {
  constructor(private readonly db: Queryable) {}

  async record(entry: AuditEntry): Promise<void> {
    await this.db.query(
      `INSERT INTO audit_log (org_id, actor, action, target, details, at, client_ip, request_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        entry.orgId,
        entry.actor,
        entry.action,
        entry.target,
        JSON.stringify(entry.details),
        entry.at,
        entry.clientIp ?? null,
        entry.requestId ?? null,
      ],
    );
  }
}

const NEWEST: KeysetOrder<'at'> = { column: 'at', field: 'at', idType: 'bigint' };

/** Reads the audit log on PostgreSQL. */
export class PostgresAuditLogStore implements AuditLogStore {
  constructor(private readonly db: Queryable) {}

  async recent(orgId: string, limit: number): Promise<AuditEntryRecord[]> {
    const result = await this.db.query<AuditSqlRow>(
      `SELECT id, org_id, actor, action, target, details, at, client_ip, request_id FROM audit_log
       WHERE org_id = $1 ORDER BY at DESC, id DESC LIMIT $2`,
      [orgId, limit],
    );
    return result.rows.map(auditEntryOf);
  }

  async page(orgId: string, query: AuditPageQuery): Promise<AuditEntryRecord[]> {
    const tail = keysetPage(NEWEST, 3, query);
    const result = await this.db.query<AuditSqlRow>(
      `SELECT id::text AS id, org_id, actor, action, target, details, at, client_ip, request_id FROM audit_log
       WHERE org_id = $1
         AND (cardinality($2::text[]) = 0 OR action = ANY ($2::text[]))
         ${tail.sql}`,
      [orgId, [...query.actions], ...tail.values],
    );
    return result.rows.map(auditEntryOf);
  }

  async pageAcrossOrganisations(orgId: string | null, query: AuditPageQuery): Promise<AuditEntryRecord[]> {
    const tail = keysetPage(NEWEST, 3, query);
    const result = await this.db.query<AuditSqlRow>(
      `SELECT id::text AS id, org_id, actor, action, target, details, at, client_ip, request_id FROM audit_log
       WHERE ($1::uuid IS NULL OR org_id = $1::uuid)
         AND (cardinality($2::text[]) = 0 OR action = ANY ($2::text[]))
         ${tail.sql}`,
      [orgId, [...query.actions], ...tail.values],
    );
    return result.rows.map(auditEntryOf);
  }
}
