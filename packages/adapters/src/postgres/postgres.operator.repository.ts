import type {
  KeysetPage,
  OperatorBlockReason,
  OperatorBlockRecord,
  OperatorEntryRepository,
  OperatorEntryStatus,
  OperatorFileName,
  OperatorRepository,
  ProfileSuspensionRecord,
  SourceBlockRecord,
} from '@svc/domain';
import { type KeysetOrder, keysetPage } from './postgres-keyset-page.js';
import type { Queryable } from './postgres-queryable.js';

interface EntrySqlRow {
  id: string;
  pops: string[];
  jurisdictions: string[];
  created_by: string;
  created_at: Date;
  removed_by: string | null;
  removed_at: Date | null;
  expired_at: Date | null;
}

interface BlockSqlRow extends EntrySqlRow {
  pattern: string;
  reason_code: OperatorBlockReason;
  public_ref: string;
  note: string;
  expires_at: Date | null;
}

interface SourceSqlRow extends EntrySqlRow {
  cidr: string;
  reason: string;
  expires_at: Date;
}

const NEWEST: KeysetOrder<'createdAt'> = { column: 'created_at', field: 'createdAt', idType: 'uuid' };

/** What differs between the two entry tables. Filters name `$1::timestamptz`, the time of the query. */
interface EntryTable<T, Row> {
  table: 'operator_blocks' | 'source_blocks';
  columns: string;
  values(entry: T): unknown[];
  recordOf(row: Row): T;
}

const STATUS_FILTERS: Record<OperatorEntryStatus, string> = {
  live: 'removed_at IS NULL AND expired_at IS NULL AND (expires_at IS NULL OR expires_at > $1::timestamptz)',
  removed: 'removed_at IS NOT NULL AND $1::timestamptz IS NOT NULL',
  expired: 'removed_at IS NULL AND (expired_at IS NOT NULL OR expires_at <= $1::timestamptz)',
};

const BLOCKS: EntryTable<OperatorBlockRecord, BlockSqlRow> = {
  table: 'operator_blocks',
  columns:
    'id, pattern, reason_code, public_ref, note, pops, jurisdictions, expires_at, created_by, created_at, removed_by, removed_at, expired_at',
  values: (block) => [
    block.id,
    block.pattern,
    block.reasonCode,
    block.publicRef,
    block.note,
    block.pops,
    block.jurisdictions,
    block.expiresAt,
    block.createdBy,
    block.createdAt,
    block.removedBy,
    block.removedAt,
    block.expiredAt,
  ],
  recordOf: (row) => ({
    id: row.id,
    pattern: row.pattern,
    reasonCode: row.reason_code,
    publicRef: row.public_ref,
    note: row.note,
    pops: row.pops,
    jurisdictions: row.jurisdictions,
    expiresAt: row.expires_at,
    createdBy: row.created_by,
    createdAt: row.created_at,
    removedBy: row.removed_by,
    removedAt: row.removed_at,
    expiredAt: row.expired_at,
  }),
};

const SOURCES: EntryTable<SourceBlockRecord, SourceSqlRow> = {
  table: 'source_blocks',
  columns:
    'id, cidr, reason, pops, jurisdictions, expires_at, created_by, created_at, removed_by, removed_at, expired_at',
  values: (source) => [
    source.id,
    source.cidr,
    source.reason,
    source.pops,
    source.jurisdictions,
    source.expiresAt,
    source.createdBy,
    source.createdAt,
    source.removedBy,
    source.removedAt,
    source.expiredAt,
  ],
  recordOf: (row) => ({
    id: row.id,
    cidr: row.cidr,
    reason: row.reason,
    pops: row.pops,
    jurisdictions: row.jurisdictions,
    expiresAt: row.expires_at,
    createdBy: row.created_by,
    createdAt: row.created_at,
    removedBy: row.removed_by,
    removedAt: row.removed_at,
    expiredAt: row.expired_at,
  }),
};

class PostgresOperatorEntries<T, Row extends EntrySqlRow> implements OperatorEntryRepository<T> {
  constructor(
    private readonly db: Queryable,
    private readonly spec: EntryTable<T, Row>,
  ) {}

  async insert(entry: T): Promise<'inserted' | 'exists'> {
    const values = this.spec.values(entry);
    const placeholders = values.map((_value, index) => `$${index + 1}`).join(', ');
    // Only operator blocks have a unique index (a live entry's pattern); a conflict there is 409 block_exists.
    const result = await this.db.query(
      `INSERT INTO ${this.spec.table} (${this.spec.columns}) VALUES (${placeholders})
       ON CONFLICT DO NOTHING RETURNING id`,
      values,
    );
    return result.rowCount === 1 ? 'inserted' : 'exists';
  }

  async find(id: string): Promise<T | null> {
    const result = await this.db.query<Row>(
      `SELECT ${this.spec.columns} FROM ${this.spec.table} WHERE id = $1`,
      [id],
    );
    const row = result.rows[0];
    return row === undefined ? null : this.spec.recordOf(row);
  }

  async remove(id: string, by: string, at: Date): Promise<T | null> {
    const result = await this.db.query<Row>(
      `UPDATE ${this.spec.table} SET removed_by = $2, removed_at = $3
       WHERE id = $1 AND removed_at IS NULL RETURNING ${this.spec.columns}`,
      [id, by, at],
    );
    const row = result.rows[0];
    return row === undefined ? null : this.spec.recordOf(row);
  }

  async list(status: OperatorEntryStatus | undefined, now: Date, page: KeysetPage): Promise<T[]> {
    const tail = keysetPage(NEWEST, 2, page);
    const filter = status === undefined ? '$1::timestamptz IS NOT NULL' : STATUS_FILTERS[status];
    const result = await this.db.query<Row>(
      `SELECT ${this.spec.columns} FROM ${this.spec.table}
       WHERE ${filter}
         ${tail.sql}`,
      [now, ...tail.values],
    );
    return result.rows.map((row) => this.spec.recordOf(row));
  }

  async live(now: Date): Promise<T[]> {
    const result = await this.db.query<Row>(
      `SELECT ${this.spec.columns} FROM ${this.spec.table} WHERE ${STATUS_FILTERS.live}
       ORDER BY created_at, id`,
      [now],
    );
    return result.rows.map((row) => this.spec.recordOf(row));
  }

  async markExpired(now: Date): Promise<number> {
    const result = await this.db.query(
      `UPDATE ${this.spec.table} SET expired_at = $1
       WHERE removed_at IS NULL AND expired_at IS NULL AND expires_at <= $1`,
      [now],
    );
    return result.rowCount ?? 0;
  }
}

/** Operator entries, files and profile suspensions on PostgreSQL (0012_operator.sql). */
export class PostgresOperatorRepository implements OperatorRepository {
  readonly blocks: OperatorEntryRepository<OperatorBlockRecord>;
  readonly sources: OperatorEntryRepository<SourceBlockRecord>;

  constructor(private readonly db: Queryable) {
    this.blocks = new PostgresOperatorEntries(db, BLOCKS);
    this.sources = new PostgresOperatorEntries(db, SOURCES);
  }

  async lockFile(file: OperatorFileName): Promise<number> {
    const result = await this.db.query<{ version: string }>(
      'SELECT version FROM operator_files WHERE name = $1 FOR UPDATE',
      [file],
    );
    const row = result.rows[0];
    if (row === undefined) throw new Error(`operator file ${file} is missing (migration 0012)`);
    return Number(row.version);
  }

  async saveFile(file: OperatorFileName, version: number, document: unknown, at: Date): Promise<void> {
    await this.db.query(
      'UPDATE operator_files SET version = $2, document = $3, updated_at = $4 WHERE name = $1',
      [file, version, JSON.stringify(document), at],
    );
  }

  async readFile(file: OperatorFileName): Promise<{ version: number; document: unknown }> {
    const result = await this.db.query<{ version: string; document: unknown }>(
      'SELECT version, document FROM operator_files WHERE name = $1',
      [file],
    );
    const row = result.rows[0];
    return { version: Number(row?.version ?? 0), document: row?.document ?? null };
  }

  async profileOrg(profileId: string): Promise<string | null> {
    const result = await this.db.query<{ org_id: string }>(
      'SELECT org_id FROM profiles WHERE id = $1 AND tombstoned_at IS NULL',
      [profileId],
    );
    return result.rows[0]?.org_id ?? null;
  }

  async findSuspension(profileId: string): Promise<ProfileSuspensionRecord | null> {
    const result = await this.db.query<{ reason: string; suspended_by: string; suspended_at: Date }>(
      'SELECT reason, suspended_by, suspended_at FROM profile_suspensions WHERE profile_id = $1',
      [profileId],
    );
    const row = result.rows[0];
    return row === undefined
      ? null
      : { profileId, reason: row.reason, suspendedBy: row.suspended_by, suspendedAt: row.suspended_at };
  }

  async setSuspension(profileId: string, suspension: ProfileSuspensionRecord | null): Promise<void> {
    if (suspension === null) {
      await this.db.query('DELETE FROM profile_suspensions WHERE profile_id = $1', [profileId]);
      return;
    }
    await this.db.query(
      `INSERT INTO profile_suspensions (profile_id, reason, suspended_by, suspended_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (profile_id) DO UPDATE SET reason = $2, suspended_by = $3, suspended_at = $4`,
      [profileId, suspension.reason, suspension.suspendedBy, suspension.suspendedAt],
    );
  }
}
