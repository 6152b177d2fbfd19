import type { ProfileRecord } from './profile.records.js';

/** Bus subject of a profile's documents: the edge subscribes per profile (spec 6.3). */
export function profileSubject(id: string): string {
  return `profiles.${id}`;
}

/**
 * The full profile document published to the edge after every write (spec 1.4, 6.3). A suspended profile
 * resolves without filtering, rules, lists, rewrites, security or parental controls, and without logging: the
 * document says so explicitly, and never carries the operator's reason.
 */
export function edgeProfileDocument(profile: ProfileRecord): Record<string, unknown> {
  return {
    kind: 'profile',
    id: profile.id,
    version: profile.version,
    suspended: profile.suspended,
    filtering: !profile.suspended,
    logging: !profile.suspended && profile.settings.logs_enabled,
    security: profile.security,
    parental: profile.parental,
    settings: profile.settings,
    rules: profile.rules,
    lists: profile.lists,
    updated_at: profile.updatedAt.toISOString(),
  };
}

/** The document that tells the edge a profile is gone (deleted, or tombstoned by an account deletion). */
export function edgeTombstone(id: string, version: number, at: Date): Record<string, unknown> {
  return { kind: 'tombstone', id, version, deleted_at: at.toISOString() };
}
