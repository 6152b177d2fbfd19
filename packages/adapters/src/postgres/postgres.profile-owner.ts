import type { Queryable } from './postgres-queryable.js';

/**
 * The organisation owning a live (not tombstoned) profile, whatever the caller's: for operator commands that
 * name a profile by id alone (`svc simulate`), which then read it through the organisation-bound repository.
 */
export async function postgresProfileOrganisation(db: Queryable, profileId: string): Promise<string | null> {
  const result = await db.query<{ org_id: string }>(
    'SELECT org_id FROM profiles WHERE id = $1 AND tombstoned_at IS NULL',
    [profileId],
  );
  return result.rows[0]?.org_id ?? null;
}
