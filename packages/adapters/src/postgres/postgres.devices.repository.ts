import type {
  DeviceIdentification,
  DeviceKind,
  DeviceOverrides,
  DevicePage,
  DevicePolicy,
  DeviceRecord,
  DeviceRepository,
  DeviceSightingSpan,
  DeviceTransport,
  DocumentDevicePolicy,
  StoredDevicePolicy,
} from '@svc/domain';
import { documentDevicePolicyOf } from '@svc/domain';
import { type KeysetOrder, keysetPage } from './postgres-keyset-page.js';
import type { Queryable } from './postgres-queryable.js';

interface DeviceSqlRow {
  profile_id: string;
  id: string;
  name: string;
  display_name: string | null;
  kind: DeviceKind;
  notes: string;
  identification: DeviceIdentification;
  transport_last: DeviceTransport | null;
  first_seen: Date;
  last_seen: Date;
}

function deviceOf(row: DeviceSqlRow): DeviceRecord {
  return {
    profileId: row.profile_id,
    id: row.id,
    name: row.name,
    displayName: row.display_name,
    kind: row.kind,
    notes: row.notes,
    identification: row.identification,
    transportLast: row.transport_last,
    firstSeen: row.first_seen,
    lastSeen: row.last_seen,
  };
}

const COLUMNS =
  'profile_id, id, name, display_name, kind, notes, identification, transport_last, first_seen, last_seen';
const NEWEST: KeysetOrder<'lastSeen'> = { column: 'last_seen', field: 'lastSeen', idType: 'text' };

/**
 * Devices on PostgreSQL (0007_devices_list_reports_audit.sql). A sighting first takes a key-share lock on its
 * profile: a profile deleted meanwhile is then seen as gone (the sighting is dropped) instead of failing the
 * batch on the foreign key, and it stays until the batch commits. Write methods need a transaction's client.
 */
export class PostgresDeviceRepository implements DeviceRepository {
  constructor(private readonly db: Queryable) {}

  async recordSighting(span: DeviceSightingSpan): Promise<boolean> {
    const profile = await this.db.query('SELECT 1 FROM profiles WHERE id = $1 FOR KEY SHARE', [
      span.profileId,
    ]);
    if (profile.rowCount === 0) return false;
    await this.db.query(
      `INSERT INTO devices (${COLUMNS})
       VALUES ($1, $2, $3, NULL, 'other', '', $4, $5, $6, $7)
       ON CONFLICT (profile_id, id) DO UPDATE SET
         first_seen = LEAST(devices.first_seen, EXCLUDED.first_seen),
         name = CASE WHEN EXCLUDED.last_seen >= devices.last_seen THEN EXCLUDED.name ELSE devices.name END,
         identification = CASE WHEN EXCLUDED.last_seen >= devices.last_seen
           THEN EXCLUDED.identification ELSE devices.identification END,
         transport_last = CASE WHEN EXCLUDED.last_seen >= devices.last_seen
           THEN EXCLUDED.transport_last ELSE devices.transport_last END,
         last_seen = GREATEST(devices.last_seen, EXCLUDED.last_seen)`,
      [
        span.profileId,
        span.id,
        span.name,
        span.identification,
        span.transport,
        span.firstSeenAt,
        span.lastSeenAt,
      ],
    );
    return true;
  }

  async find(profileId: string, id: string): Promise<DeviceRecord | null> {
    const result = await this.db.query<DeviceSqlRow>(
      `SELECT ${COLUMNS} FROM devices WHERE profile_id = $1 AND id = $2`,
      [profileId, id],
    );
    const row = result.rows[0];
    return row === undefined ? null : deviceOf(row);
  }

  async saveOverrides(profileId: string, id: string, overrides: DeviceOverrides): Promise<boolean> {
    const result = await this.db.query(
      'UPDATE devices SET display_name = $3, kind = $4, notes = $5 WHERE profile_id = $1 AND id = $2',
      [profileId, id, overrides.displayName, overrides.kind, overrides.notes],
    );
    return result.rowCount === 1;
  }

  async findPolicy(profileId: string, id: string): Promise<StoredDevicePolicy | null> {
    const result = await this.db.query<{ policy: DevicePolicy; paused_until: Date | null }>(
      'SELECT policy, paused_until FROM devices WHERE profile_id = $1 AND id = $2',
      [profileId, id],
    );
    const row = result.rows[0];
    return row === undefined ? null : { policy: row.policy, pausedUntil: row.paused_until };
  }

  async savePolicy(profileId: string, id: string, stored: StoredDevicePolicy): Promise<boolean> {
    const result = await this.db.query(
      'UPDATE devices SET policy = $3, paused_until = $4 WHERE profile_id = $1 AND id = $2',
      [profileId, id, stored.policy, stored.pausedUntil],
    );
    return result.rowCount === 1;
  }

  async documentPolicies(profileId: string): Promise<Record<string, DocumentDevicePolicy>> {
    const result = await this.db.query<{ id: string; policy: DevicePolicy; paused_until: Date | null }>(
      `SELECT id, policy, paused_until FROM devices
       WHERE profile_id = $1 AND (policy <> '{}'::jsonb OR paused_until IS NOT NULL)
       ORDER BY id COLLATE "C"`,
      [profileId],
    );
    const policies: Record<string, DocumentDevicePolicy> = {};
    for (const row of result.rows) {
      const entry = documentDevicePolicyOf(row.policy, row.paused_until);
      if (entry !== null) policies[row.id] = entry;
    }
    return policies;
  }

  async delete(profileId: string, id: string): Promise<boolean> {
    const result = await this.db.query('DELETE FROM devices WHERE profile_id = $1 AND id = $2', [
      profileId,
      id,
    ]);
    return result.rowCount === 1;
  }

  async list(profileId: string, page: DevicePage): Promise<DeviceRecord[]> {
    const tail = keysetPage(NEWEST, 2, page);
    const result = await this.db.query<DeviceSqlRow>(
      `SELECT ${COLUMNS} FROM devices
       WHERE profile_id = $1
         ${tail.sql}`,
      [profileId, ...tail.values],
    );
    return result.rows.map(deviceOf);
  }
}
