import type {
  KeysetPage,
  ProfileRecord,
  ProfileRepository,
  ProfileSnapshot,
  ProfileStore,
} from '@svc/domain';
import {
  DEVICE_POLICIES_COLUMN,
  type DevicePolicySqlRow,
  devicePoliciesOf,
} from './postgres.device-policies-column.js';
import { type KeysetOrder, keysetPage } from './postgres-keyset-page.js';
import type { Queryable } from './postgres-queryable.js';
import { ReadCoalescer } from './read-coalescer.js';

interface ProfileSqlRow {
  id: string;
  org_id: string;
  name: string;
  version: number;
  security: ProfileRecord['security'];
  parental: ProfileRecord['parental'];
  /** Rows written before `settings.time_zone` existed have none. */
  settings: Omit<ProfileRecord['settings'], 'time_zone'> & { time_zone?: string };
  rules: ProfileRecord['rules'];
  lists: number[];
  schedules: ProfileRecord['schedules'];
  bedtime: string | null;
  schedule_assignments: ProfileRecord['scheduleAssignments'];
  allowances: ProfileRecord['allowances'];
  suspended: boolean;
  paused_until: Date | null;
  created_at: Date;
  updated_at: Date;
}

function profileOf(row: ProfileSqlRow): ProfileRecord {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    version: row.version,
    security: row.security,
    parental: row.parental,
    settings: { ...row.settings, time_zone: row.settings.time_zone ?? 'UTC' },
    rules: row.rules,
    lists: row.lists,
    schedules: row.schedules,
    bedtime: row.bedtime,
    scheduleAssignments: row.schedule_assignments,
    allowances: row.allowances,
    suspended: row.suspended,
    pausedUntil: row.paused_until,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const COLUMNS =
  'id, org_id, name, version, security, parental, settings, rules, lists, schedules, suspended, paused_until, created_at, updated_at, bedtime, schedule_assignments, allowances';

const NEWEST: KeysetOrder<'createdAt'> = { column: 'created_at', field: 'createdAt', idType: 'text' };

/** Profiles on PostgreSQL; every query is bound to the caller's organisation. */
export class PostgresProfileRepository implements ProfileRepository {
  constructor(private readonly db: Queryable) {}

  async insert(profile: ProfileRecord): Promise<boolean> {
    const result = await this.db.query(
      `INSERT INTO profiles (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
       ON CONFLICT (id) DO NOTHING`,
      [
        profile.id,
        profile.orgId,
        profile.name,
        profile.version,
        JSON.stringify(profile.security),
        JSON.stringify(profile.parental),
        JSON.stringify(profile.settings),
        JSON.stringify(profile.rules),
        profile.lists,
        JSON.stringify(profile.schedules),
        profile.suspended,
        profile.pausedUntil,
        profile.createdAt,
        profile.updatedAt,
        profile.bedtime,
        JSON.stringify(profile.scheduleAssignments),
        JSON.stringify(profile.allowances),
      ],
    );
    return result.rowCount === 1;
  }

  async find(
    orgId: string,
    id: string,
    options: { forUpdate?: boolean } = {},
  ): Promise<ProfileRecord | null> {
    const forUpdate = options.forUpdate === true;
    // Named: each connection parses and plans the statements of every profile read and write once.
    const result = await this.db.query<ProfileSqlRow>({
      name: forUpdate ? 'profiles.find-for-update' : 'profiles.find',
      text: `SELECT ${COLUMNS} FROM profiles WHERE org_id = $1 AND id = $2 AND tombstoned_at IS NULL${forUpdate ? ' FOR UPDATE' : ''}`,
      values: [orgId, id],
    });
    const row = result.rows[0];
    return row === undefined ? null : profileOf(row);
  }

  /**
   * The organisation's live profile and the addresses linked to it (ascending text order, empty DDNS slots
   * left out), in one statement: one round trip, and both as of one snapshot.
   */
  async findWithLinkedIps(orgId: string, id: string): Promise<ProfileSnapshot | null> {
    const result = await this.db.query<
      ProfileSqlRow & { linked_ips: string[]; devices: DevicePolicySqlRow[] }
    >({
      name: 'profiles.find-with-linked-ips',
      text: `SELECT ${COLUMNS},
               ARRAY(SELECT ip FROM linked_ips l WHERE l.profile_id = p.id AND l.state = 'active' AND l.ip IS NOT NULL
                     ORDER BY l.ip COLLATE "C") AS linked_ips,
               ${DEVICE_POLICIES_COLUMN}
             FROM profiles p WHERE org_id = $1 AND id = $2 AND tombstoned_at IS NULL`,
      values: [orgId, id],
    });
    const row = result.rows[0];
    if (row === undefined) return null;
    return { record: profileOf(row), linkedIps: row.linked_ips, devices: devicePoliciesOf(row.devices) };
  }

  async save(profile: ProfileRecord): Promise<void> {
    await this.db.query({
      name: 'profiles.save',
      text: `UPDATE profiles SET name = $3, version = $4, security = $5, parental = $6, settings = $7, rules = $8,
                           lists = $9, schedules = $10, suspended = $11, updated_at = $12,
                           paused_until = $13, bedtime = $14, schedule_assignments = $15, allowances = $16
       WHERE org_id = $1 AND id = $2 AND tombstoned_at IS NULL`,
      values: [
        profile.orgId,
        profile.id,
        profile.name,
        profile.version,
        JSON.stringify(profile.security),
        JSON.stringify(profile.parental),
        JSON.stringify(profile.settings),
        JSON.stringify(profile.rules),
        profile.lists,
        JSON.stringify(profile.schedules),
        profile.suspended,
        profile.updatedAt,
        profile.pausedUntil,
        profile.bedtime,
        JSON.stringify(profile.scheduleAssignments),
        JSON.stringify(profile.allowances),
      ],
    });
  }

  async delete(orgId: string, id: string): Promise<boolean> {
    const result = await this.db.query(
      'DELETE FROM profiles WHERE org_id = $1 AND id = $2 AND tombstoned_at IS NULL',
      [orgId, id],
    );
    return result.rowCount === 1;
  }

  async list(orgId: string, page: KeysetPage): Promise<ProfileRecord[]> {
    const tail = keysetPage(NEWEST, 2, page);
    const result = await this.db.query<ProfileSqlRow>(
      `SELECT ${COLUMNS} FROM profiles
       WHERE org_id = $1 AND tombstoned_at IS NULL ${tail.sql}`,
      [orgId, ...tail.values],
    );
    return result.rows.map(profileOf);
  }

  async tombstoneAll(orgId: string, at: Date): Promise<ProfileRecord[]> {
    const result = await this.db.query<ProfileSqlRow>(
      `UPDATE profiles SET tombstoned_at = $2, version = version + 1, updated_at = $2
       WHERE org_id = $1 AND tombstoned_at IS NULL RETURNING ${COLUMNS}`,
      [orgId, at],
    );
    return result.rows.map(profileOf);
  }

  async restoreAll(orgId: string, at: Date): Promise<ProfileRecord[]> {
    const result = await this.db.query<ProfileSqlRow>(
      `UPDATE profiles SET tombstoned_at = NULL, version = version + 1, updated_at = $2
       WHERE org_id = $1 AND tombstoned_at IS NOT NULL
       RETURNING ${COLUMNS}`,
      [orgId, at],
    );
    return result.rows.map(profileOf);
  }

  async eraseAll(orgId: string): Promise<string[]> {
    const result = await this.db.query<{ id: string }>(
      'DELETE FROM profiles WHERE org_id = $1 RETURNING id',
      [orgId],
    );
    return result.rows.map((row) => row.id);
  }
}

/** Options of {@link PostgresProfileStore}. */
export interface PostgresProfileStoreOptions {
  /** Profile read statements in flight at once (each on its own pooled connection). */
  maxInFlight?: number;
  /** Profiles per read statement at most. */
  maxBatch?: number;
}

/**
 * Profile reads outside a transaction, on the pool. Concurrent `find`s coalesce: while a read statement is in
 * flight, further ones queue and go out together as one `id = ANY($1)` statement, each answer then filtered
 * by its caller's organisation; nothing is answered from a cache (see {@link ReadCoalescer}).
 */
export class PostgresProfileStore implements ProfileStore {
  private readonly repository: PostgresProfileRepository;
  private readonly reads: ReadCoalescer<string, ProfileSqlRow>;

  constructor(db: Queryable, options: PostgresProfileStoreOptions = {}) {
    this.repository = new PostgresProfileRepository(db);
    this.reads = new ReadCoalescer({
      maxInFlight: options.maxInFlight ?? 1,
      maxBatch: options.maxBatch ?? 64,
      readBatch: async (ids) => {
        const result = await db.query<ProfileSqlRow>({
          name: 'profiles.find-many',
          text: `SELECT ${COLUMNS} FROM profiles WHERE id = ANY($1::text[]) AND tombstoned_at IS NULL`,
          values: [ids],
        });
        return new Map(result.rows.map((row) => [row.id, row]));
      },
    });
  }

  async find(orgId: string, id: string): Promise<ProfileRecord | null> {
    const row = await this.reads.read(id);
    // Callers of one batch share the row's parsed JSON; each gets its own record. (uuid text is lower case.)
    return row === undefined || row.org_id !== orgId.toLowerCase() ? null : profileOf(row);
  }

  list(orgId: string, page: KeysetPage): Promise<ProfileRecord[]> {
    return this.repository.list(orgId, page);
  }
}
