import type {
  DueNodeAlert,
  KeysetPage,
  NodeAlertCutoffs,
  NodeAlertKind,
  NodeRecord,
  NodeRepository,
  NodeState,
} from '@svc/domain';
import { type KeysetOrder, keysetPage } from './postgres-keyset-page.js';
import type { Queryable } from './postgres-queryable.js';

interface NodeSqlRow {
  id: string;
  org_id: string;
  profile_id: string;
  name: string;
  state: NodeState;
  enrolment_lookup: string;
  enrolment_expires_at: Date;
  token_lookup: string | null;
  previous_token_lookup: string | null;
  previous_valid_until: Date | null;
  token_rotated_at: Date | null;
  software_version: string | null;
  shapes: string[];
  created_at: Date;
  enrolled_at: Date | null;
  revoked_at: Date | null;
  last_seen_at: Date | null;
  operator_files: NodeRecord['operatorFiles'];
}

/** The columns a new node is inserted with; `operator_files` starts at its default until the node acknowledges. */
const INSERT_COLUMNS =
  'id, org_id, profile_id, name, state, enrolment_lookup, enrolment_expires_at, token_lookup, previous_token_lookup, previous_valid_until, token_rotated_at, software_version, shapes, created_at, enrolled_at, revoked_at, last_seen_at';
const COLUMNS = `${INSERT_COLUMNS}, operator_files`;

function nodeOf(row: NodeSqlRow): NodeRecord {
  return {
    id: row.id,
    orgId: row.org_id,
    profileId: row.profile_id,
    name: row.name,
    state: row.state,
    enrolmentLookup: row.enrolment_lookup,
    enrolmentExpiresAt: row.enrolment_expires_at,
    tokenLookup: row.token_lookup,
    previousTokenLookup: row.previous_token_lookup,
    previousValidUntil: row.previous_valid_until,
    tokenRotatedAt: row.token_rotated_at,
    softwareVersion: row.software_version,
    shapes: row.shapes,
    createdAt: row.created_at,
    enrolledAt: row.enrolled_at,
    revokedAt: row.revoked_at,
    lastSeenAt: row.last_seen_at,
    // Absent until the node acknowledges a file, as the memory store keeps it.
    ...(row.operator_files === undefined || Object.keys(row.operator_files).length === 0
      ? {}
      : { operatorFiles: row.operator_files }),
  };
}

function valuesOf(node: NodeRecord): unknown[] {
  return [
    node.id,
    node.orgId,
    node.profileId,
    node.name,
    node.state,
    node.enrolmentLookup,
    node.enrolmentExpiresAt,
    node.tokenLookup,
    node.previousTokenLookup,
    node.previousValidUntil,
    node.tokenRotatedAt,
    node.softwareVersion,
    JSON.stringify(node.shapes),
    node.createdAt,
    node.enrolledAt,
    node.revokedAt,
    node.lastSeenAt,
  ];
}

const NEWEST: KeysetOrder<'createdAt'> = { column: 'created_at', field: 'createdAt', idType: 'uuid' };

/** Self-hosted nodes on PostgreSQL (0011_nodes.sql). Write methods need a transaction's client. */
export class PostgresNodeRepository implements NodeRepository {
  constructor(private readonly db: Queryable) {}

  private async one(where: string, values: unknown[], forUpdate = false): Promise<NodeRecord | null> {
    const result = await this.db.query<NodeSqlRow>(
      `SELECT ${COLUMNS} FROM nodes WHERE ${where}${forUpdate ? ' FOR UPDATE' : ''}`,
      values,
    );
    const row = result.rows[0];
    return row === undefined ? null : nodeOf(row);
  }

  async insert(node: NodeRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO nodes (${INSERT_COLUMNS})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14, $15, $16, $17)`,
      valuesOf(node),
    );
  }

  find(orgId: string, profileId: string, id: string): Promise<NodeRecord | null> {
    return this.one('org_id = $1 AND profile_id = $2 AND id = $3', [orgId, profileId, id]);
  }

  findById(id: string, options: { forUpdate?: boolean } = {}): Promise<NodeRecord | null> {
    return this.one('id = $1', [id], options.forUpdate === true);
  }

  findByEnrolmentLookup(lookup: string, options: { forUpdate?: boolean } = {}): Promise<NodeRecord | null> {
    return this.one('enrolment_lookup = $1', [lookup], options.forUpdate === true);
  }

  findByTokenLookup(lookup: string, options: { forUpdate?: boolean } = {}): Promise<NodeRecord | null> {
    return this.one('token_lookup = $1 OR previous_token_lookup = $1', [lookup], options.forUpdate === true);
  }

  async save(node: NodeRecord): Promise<void> {
    await this.db.query(
      `UPDATE nodes SET org_id = $2, profile_id = $3, name = $4, state = $5, enrolment_lookup = $6,
         enrolment_expires_at = $7, token_lookup = $8, previous_token_lookup = $9, previous_valid_until = $10,
         token_rotated_at = $11, software_version = $12, shapes = $13::jsonb, created_at = $14, enrolled_at = $15,
         revoked_at = $16, last_seen_at = $17
       WHERE id = $1`,
      valuesOf(node),
    );
  }

  async list(orgId: string, profileId: string, page: KeysetPage): Promise<NodeRecord[]> {
    const tail = keysetPage(NEWEST, 3, page);
    const result = await this.db.query<NodeSqlRow>(
      `SELECT ${COLUMNS} FROM nodes
       WHERE org_id = $1 AND profile_id = $2
         ${tail.sql}`,
      [orgId, profileId, ...tail.values],
    );
    return result.rows.map(nodeOf);
  }

  async revokeAll(orgId: string, at: Date): Promise<string[]> {
    const result = await this.db.query<{ id: string }>(
      `UPDATE nodes SET state = 'revoked', revoked_at = $2 WHERE org_id = $1 AND state <> 'revoked' RETURNING id`,
      [orgId, at],
    );
    return result.rows.map((row) => row.id);
  }

  async countEnrolled(profileId: string): Promise<number> {
    const result = await this.db.query<{ count: string }>(
      `SELECT count(*) AS count FROM nodes WHERE profile_id = $1 AND state = 'enrolled'`,
      [profileId],
    );
    return Number(result.rows[0]?.count ?? 0);
  }

  async touch(id: string, at: Date, software?: { version: string; shapes: string[] }): Promise<void> {
    await this.db.query(
      `UPDATE nodes SET last_seen_at = GREATEST(last_seen_at, $2::timestamptz),
         software_version = COALESCE($3, software_version), shapes = COALESCE($4::jsonb, shapes)
       WHERE id = $1`,
      [id, at, software?.version ?? null, software === undefined ? null : JSON.stringify(software.shapes)],
    );
  }

  async acknowledgeOperatorFile(
    id: string,
    file: 'operator_blocks' | 'operator_sources',
    version: number,
  ): Promise<void> {
    await this.db.query(
      `UPDATE nodes SET operator_files = jsonb_set(operator_files, ARRAY[$2::text], to_jsonb($3::int))
       WHERE id = $1 AND COALESCE((operator_files ->> $2::text)::int, -1) < $3`,
      [id, file, version],
    );
  }

  async linkSeen(ids: readonly string[], at: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.db.query(
      `UPDATE nodes SET link_seen_at = GREATEST(link_seen_at, $2::timestamptz),
         last_seen_at = GREATEST(last_seen_at, $2::timestamptz)
       WHERE id = ANY($1::uuid[])`,
      [ids, at],
    );
  }

  async claimDueAlerts(cutoffs: NodeAlertCutoffs, limit: number): Promise<DueNodeAlert[]> {
    const result = await this.db.query<NodeSqlRow & { link_seen_at: Date; offline: boolean }>(
      `SELECT ${COLUMNS}, link_seen_at, link_seen_at <= $1 AS offline FROM nodes
       WHERE state = 'enrolled' AND link_seen_at IS NOT NULL
         AND ((link_seen_at <= $1 AND offline_alerted_at IS NULL
               AND (alert_pair_at IS NULL OR alert_pair_at <= $2))
           OR (link_seen_at > $1 AND offline_alerted_at IS NOT NULL))
       ORDER BY link_seen_at
       LIMIT $3
       FOR UPDATE SKIP LOCKED`,
      [cutoffs.offlineBefore, cutoffs.pairBefore, limit],
    );
    return result.rows.map((row) => ({
      node: nodeOf(row),
      kind: row.offline ? 'offline' : 'back',
      linkSeenAt: row.link_seen_at,
    }));
  }

  async recordAlert(id: string, kind: NodeAlertKind, at: Date): Promise<void> {
    if (kind === 'offline') {
      await this.db.query('UPDATE nodes SET offline_alerted_at = $2, alert_pair_at = $2 WHERE id = $1', [
        id,
        at,
      ]);
    } else {
      await this.db.query('UPDATE nodes SET offline_alerted_at = NULL WHERE id = $1', [id]);
    }
  }
}
