import type { ProfileRecord } from '../profiles/profile.records.js';

/** Profiles remembered at most; beyond it the one remembered longest ago is forgotten. */
const REMEMBERED = 10_000;

/**
 * Which profiles this server last found with a columnar destination (cloud or both) for their own
 * organisation. Only a guess, never an answer: a log query of such a profile starts reading the store while
 * the profile is looked up, and the profile read still decides (another organisation's profile is 404, a
 * changed destination discards the read). Kept per server and in memory; a stale guess costs one read.
 */
export class ColumnarDestinationHints {
  /** Profile id → the organisation that read it. */
  private readonly columnar = new Map<string, string>();

  likely(orgId: string, profileId: string): boolean {
    return this.columnar.get(profileId) === orgId;
  }

  /** Remembers what a profile read found. */
  learn(profile: ProfileRecord): void {
    this.columnar.delete(profile.id);
    const destination = profile.settings.log_destination;
    if (destination !== 'cloud' && destination !== 'both') return;
    this.columnar.set(profile.id, profile.orgId);
    if (this.columnar.size > REMEMBERED) {
      const oldest = this.columnar.keys().next();
      if (oldest.done !== true) this.columnar.delete(oldest.value);
    }
  }

  forget(profileId: string): void {
    this.columnar.delete(profileId);
  }
}
