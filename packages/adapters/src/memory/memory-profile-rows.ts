import type { ProfileRepository } from '@svc/domain';
import type { Snapshottable } from './memory-snapshot.js';

/**
 * Rows that belong to a profile (devices, linked IPs, nodes) in an engine-free store, by key: snapshot for
 * transaction rollback, and removed with their profile, as ON DELETE CASCADE removes them in Postgres.
 */
export abstract class MemoryProfileRows<Row extends { profileId: string }> implements Snapshottable {
  protected rows = new Map<string, Row>();

  snapshot(): unknown {
    return structuredClone(this.rows);
  }

  restore(snapshot: unknown): void {
    this.rows = snapshot as Map<string, Row>;
  }

  /** `profiles` whose deletions also remove the profile's rows here. */
  cascadingFrom(profiles: ProfileRepository): ProfileRepository {
    return {
      ...profiles,
      delete: async (orgId, id) => {
        const deleted = await profiles.delete(orgId, id);
        if (deleted) {
          for (const [key, row] of this.rows) if (row.profileId === id) this.rows.delete(key);
        }
        return deleted;
      },
    };
  }
}
