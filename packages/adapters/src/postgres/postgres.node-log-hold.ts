import type { HeldLogRow, NodeLogHoldStore, NodeLogRow } from '@svc/domain';
import type { Queryable } from './postgres-queryable.js';

/** Rows per insert statement (jsonb array unnested), to keep statements small. */
const INSERT_CHUNK = 5_000;

/**
 * The offline hold and the nodes' link state on PostgreSQL (migration 0017: node_log_hold, nodes.link_id),
 * shared by every API server.
 */
export class PostgresNodeLogHoldStore implements NodeLogHoldStore {
  constructor(private readonly db: Queryable) {}

  async nodesOf(profileId: string, heardAfter: Date): Promise<{ enrolled: number; online: number }> {
    const result = await this.db.query<{ enrolled: number; online: number }>(
      `SELECT count(*)::int AS enrolled,
              (count(*) FILTER (WHERE link_id IS NOT NULL AND link_seen_at > $2))::int AS online
       FROM nodes WHERE profile_id = $1 AND state = 'enrolled'`,
      [profileId, heardAfter],
    );
    return result.rows[0] ?? { enrolled: 0, online: 0 };
  }

  async linkOpened(nodeId: string, linkId: string, at: Date): Promise<void> {
    await this.db.query(
      `UPDATE nodes SET link_id = $2, link_seen_at = GREATEST(link_seen_at, $3::timestamptz),
         last_seen_at = GREATEST(last_seen_at, $3::timestamptz)
       WHERE id = $1`,
      [nodeId, linkId, at],
    );
  }

  async linkClosed(nodeId: string, linkId: string): Promise<void> {
    await this.db.query('UPDATE nodes SET link_id = NULL WHERE id = $1 AND link_id = $2', [nodeId, linkId]);
  }

  async hold(profileId: string, rows: readonly NodeLogRow[], heldAt: Date, expiresAt: Date): Promise<void> {
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
      // WITH ORDINALITY keeps the given order in the seq values one statement assigns.
      await this.db.query(
        `INSERT INTO node_log_hold (profile_id, row_json, held_at, expires_at)
         SELECT $1, value, $3, $4 FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS r(value, n)
         ORDER BY n`,
        [profileId, JSON.stringify(rows.slice(start, start + INSERT_CHUNK)), heldAt, expiresAt],
      );
    }
  }

  async claim(
    profileId: string,
    linkId: string,
    now: Date,
    claimUntil: Date,
    limit: number,
  ): Promise<HeldLogRow[]> {
    const result = await this.db.query<{ seq: string; row_json: NodeLogRow }>(
      `UPDATE node_log_hold SET claimed_by = $2, claimed_until = $4
       WHERE seq IN (
         SELECT seq FROM node_log_hold
         WHERE profile_id = $1 AND expires_at > $3
           AND (claimed_by IS NULL OR claimed_by = $2 OR claimed_until <= $3)
         ORDER BY seq LIMIT $5
         FOR UPDATE SKIP LOCKED)
       RETURNING seq, row_json`,
      [profileId, linkId, now, claimUntil, limit],
    );
    return result.rows
      .map((row) => ({ seq: String(row.seq), row: row.row_json }))
      .sort((a, b) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : 1));
  }

  async release(profileId: string, linkId: string, seq: string): Promise<number> {
    const result = await this.db.query(
      'DELETE FROM node_log_hold WHERE profile_id = $1 AND claimed_by = $2 AND seq <= $3::bigint',
      [profileId, linkId, seq],
    );
    return result.rowCount ?? 0;
  }

  async unclaim(linkId: string): Promise<void> {
    await this.db.query(
      'UPDATE node_log_hold SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = $1',
      [linkId],
    );
  }

  async expire(now: Date, limit: number): Promise<number> {
    // SKIP LOCKED: servers expiring together each take other rows, and none waits on a claim in progress.
    const result = await this.db.query(
      `DELETE FROM node_log_hold WHERE seq IN (
         SELECT seq FROM node_log_hold WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [now, limit],
    );
    return result.rowCount ?? 0;
  }

  async profilesHolding(profileIds: readonly string[], now: Date): Promise<string[]> {
    if (profileIds.length === 0) return [];
    const result = await this.db.query<{ profile_id: string }>(
      `SELECT DISTINCT profile_id FROM node_log_hold
       WHERE profile_id = ANY($1::text[]) AND expires_at > $2 AND (claimed_by IS NULL OR claimed_until <= $2)`,
      [profileIds, now],
    );
    return result.rows.map((row) => row.profile_id);
  }
}
