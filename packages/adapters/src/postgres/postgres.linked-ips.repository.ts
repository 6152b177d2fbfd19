import type {
  KeysetPage,
  LinkedIpRecord,
  LinkedIpRepository,
  LinkedIpState,
  LinkedIpWriteResult,
} from '@svc/domain';
import { type KeysetOrder, keysetPage } from './postgres-keyset-page.js';
import type { Queryable } from './postgres-queryable.js';

interface LinkedIpSqlRow {
  id: string;
  org_id: string;
  profile_id: string;
  ip: string | null;
  state: LinkedIpState;
  ddns: boolean;
  ddns_generation: number;
  ddns_lookup: string;
  created_at: Date;
  updated_at: Date;
}

function linkedIpOf(row: LinkedIpSqlRow): LinkedIpRecord {
  return {
    id: row.id,
    orgId: row.org_id,
    profileId: row.profile_id,
    ip: row.ip,
    state: row.state,
    ddns: row.ddns,
    ddnsGeneration: row.ddns_generation,
    ddnsLookup: row.ddns_lookup,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const COLUMNS =
  'id, org_id, profile_id, ip, state, ddns, ddns_generation, ddns_lookup, created_at, updated_at';
/** The partial unique index that keeps an active address on one profile anywhere (0021_linked_ip_proof.sql). */
const ADDRESS_INDEX = 'linked_ips_active_ip';
const SAVEPOINT = 'linked_ip_address';
const NEWEST: KeysetOrder<'createdAt'> = { column: 'created_at', field: 'createdAt', idType: 'uuid' };

/** True for the unique violation (SQLSTATE 23505) of the address index. */
function isAddressTaken(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    error.code === '23505' &&
    'constraint' in error &&
    error.constraint === ADDRESS_INDEX
  );
}

/**
 * Linked IPs on PostgreSQL. An address taken by a concurrent transaction is reported by the unique index when
 * that transaction commits, whichever profile it is on: the statement runs under a savepoint so the conflict
 * becomes a result and the caller's transaction stays usable. Write methods need a transaction's client.
 */
export class PostgresLinkedIpRepository implements LinkedIpRepository {
  constructor(private readonly db: Queryable) {}

  private async guardAddress(sql: string, values: unknown[]): Promise<LinkedIpWriteResult> {
    await this.db.query(`SAVEPOINT ${SAVEPOINT}`);
    try {
      await this.db.query(sql, values);
    } catch (error) {
      await this.db.query(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`);
      if (isAddressTaken(error)) return 'ip_conflict';
      throw error;
    }
    await this.db.query(`RELEASE SAVEPOINT ${SAVEPOINT}`);
    return 'written';
  }

  insert(link: LinkedIpRecord): Promise<LinkedIpWriteResult> {
    return this.guardAddress(
      `INSERT INTO linked_ips (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        link.id,
        link.orgId,
        link.profileId,
        link.ip,
        link.state,
        link.ddns,
        link.ddnsGeneration,
        link.ddnsLookup,
        link.createdAt,
        link.updatedAt,
      ],
    );
  }

  async find(orgId: string, profileId: string, id: string): Promise<LinkedIpRecord | null> {
    const result = await this.db.query<LinkedIpSqlRow>(
      `SELECT ${COLUMNS} FROM linked_ips WHERE org_id = $1 AND profile_id = $2 AND id = $3`,
      [orgId, profileId, id],
    );
    const row = result.rows[0];
    return row === undefined ? null : linkedIpOf(row);
  }

  async findByDdnsLookup(ddnsLookup: string): Promise<LinkedIpRecord | null> {
    const result = await this.db.query<LinkedIpSqlRow>(
      `SELECT ${COLUMNS} FROM linked_ips WHERE ddns_lookup = $1`,
      [ddnsLookup],
    );
    const row = result.rows[0];
    return row === undefined ? null : linkedIpOf(row);
  }

  setIp(id: string, ip: string, at: Date): Promise<LinkedIpWriteResult> {
    return this.guardAddress(
      "UPDATE linked_ips SET ip = $2, state = 'active', updated_at = $3 WHERE id = $1",
      [id, ip, at],
    );
  }

  async setDdnsToken(id: string, generation: number, ddnsLookup: string): Promise<void> {
    await this.db.query('UPDATE linked_ips SET ddns_generation = $2, ddns_lookup = $3 WHERE id = $1', [
      id,
      generation,
      ddnsLookup,
    ]);
  }

  async delete(orgId: string, profileId: string, id: string): Promise<boolean> {
    const result = await this.db.query(
      'DELETE FROM linked_ips WHERE org_id = $1 AND profile_id = $2 AND id = $3',
      [orgId, profileId, id],
    );
    return result.rowCount === 1;
  }

  async list(orgId: string, profileId: string, page: KeysetPage): Promise<LinkedIpRecord[]> {
    const tail = keysetPage(NEWEST, 3, page);
    const result = await this.db.query<LinkedIpSqlRow>(
      `SELECT ${COLUMNS} FROM linked_ips
       WHERE org_id = $1 AND profile_id = $2
         ${tail.sql}`,
      [orgId, profileId, ...tail.values],
    );
    return result.rows.map(linkedIpOf);
  }

  async addresses(profileId: string): Promise<string[]> {
    // Named: read by every profile write under the row lock (the edge document), parsed once per connection.
    const result = await this.db.query<{ ip: string }>({
      name: 'linked-ips.addresses',
      text: `SELECT ip FROM linked_ips WHERE profile_id = $1 AND state = 'active' AND ip IS NOT NULL
             ORDER BY ip COLLATE "C"`,
      values: [profileId],
    });
    return result.rows.map((row) => row.ip);
  }

  async listOfOrganisation(orgId: string): Promise<LinkedIpRecord[]> {
    const result = await this.db.query<LinkedIpSqlRow>(
      `SELECT ${COLUMNS} FROM linked_ips WHERE org_id = $1`,
      [orgId],
    );
    return result.rows.map(linkedIpOf);
  }

  async deletePending(orgId: string, createdBefore?: Date): Promise<number> {
    const result = await this.db.query(
      `DELETE FROM linked_ips
        WHERE org_id = $1 AND state = 'pending' AND ip IS NOT NULL AND ($2::timestamptz IS NULL OR created_at < $2)`,
      [orgId, createdBefore ?? null],
    );
    return result.rowCount ?? 0;
  }

  async countForCaps(orgId: string, profileId: string): Promise<{ profile: number; organisation: number }> {
    // Held to the end of the caller's transaction: the organisation's links are counted one writer at a time.
    await this.db.query("SELECT pg_advisory_xact_lock(hashtext('linked-ips:' || $1))", [orgId]);
    const result = await this.db.query<{ profile: number; organisation: number }>(
      `SELECT count(*) FILTER (WHERE profile_id = $2)::int AS profile, count(*)::int AS organisation
         FROM linked_ips WHERE org_id = $1`,
      [orgId, profileId],
    );
    return result.rows[0] ?? { profile: 0, organisation: 0 };
  }
}
