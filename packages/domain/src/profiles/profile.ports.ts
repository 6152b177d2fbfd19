import type { LinkedIpRepository } from '../linked-ips/linked-ip.ports.js';
import type { OutboxMessage } from '../outbox/outbox.ports.js';
import type { KeysetPage } from '../pagination/keyset.js';
import type { ProfileRecord } from './profile.records.js';

/**
 * Profiles, always within one organisation: every lookup takes the caller's organisation, so another
 * organisation's profile is simply not found (spec 1.9).
 */
export interface ProfileRepository {
  /** Inserts a new profile; false when the id is taken (the caller draws another). */
  insert(profile: ProfileRecord): Promise<boolean>;
  /** The organisation's profile; with `forUpdate`, locked until the transaction ends (writers serialise). */
  find(orgId: string, id: string, options?: { forUpdate?: boolean }): Promise<ProfileRecord | null>;
  /** Writes every field of a profile found with `forUpdate` in this transaction. */
  save(profile: ProfileRecord): Promise<void>;
  delete(orgId: string, id: string): Promise<boolean>;
  /** The organisation's profiles, newest first, after the keyset position. */
  list(orgId: string, page: KeysetPage): Promise<ProfileRecord[]>;
  /**
   * Marks every live profile of the organisation tombstoned (account deletion pending), bumping each version
   * by one (the tombstone's version), and returns them; a tombstoned profile is kept for restoring but is found
   * by no other method.
   */
  tombstoneAll(orgId: string, at: Date): Promise<ProfileRecord[]>;
  /** Clears the tombstones of the organisation's profiles, bumping each version by one; returns them. */
  restoreAll(orgId: string, at: Date): Promise<ProfileRecord[]>;
  /** Deletes every profile of the organisation, tombstoned or not (account erasure); returns their ids. */
  eraseAll(orgId: string): Promise<string[]>;
}

/** Profile reads outside a transaction. */
export const ProfileStore = Symbol.for('svc.ProfileStore');
export type ProfileStore = Pick<ProfileRepository, 'find' | 'list'>;

/**
 * Where document contributors read the parts of a profile's edge document kept outside its row: a transaction
 * (writes under the row lock), or a {@link ProfileSnapshot}'s parts (row-only writes).
 */
export interface EdgeDocumentReader {
  linkedIps: Pick<LinkedIpRepository, 'addresses'>;
}

/**
 * A profile as a writer reads it before committing, with the parts of its edge document kept outside its row
 * read in the same snapshot: every change to such a part is a versioned write of the profile, so a commit at
 * the version read publishes parts that are still current.
 */
export interface ProfileSnapshot {
  record: ProfileRecord;
  /** Answers for this profile only. */
  parts: EdgeDocumentReader;
}

/**
 * A profile write in one atomic step, without a lock held across round trips: a writer reads the profile,
 * builds its next version and publication, and commits them only if nobody wrote the profile meanwhile.
 */
export const ProfileCommitter = Symbol.for('svc.ProfileCommitter');
export interface ProfileCommitter {
  /**
   * The organisation's live profile and its edge document's other parts, as a writer reads them before
   * committing: in one read, at once, never queued behind other requests' reads.
   */
  current(orgId: string, id: string): Promise<ProfileSnapshot | null>;
  /**
   * Stores every field of `next` but `suspended` and enqueues `publication` to the outbox, together and
   * atomically, only if the stored profile is still live at version `next.version - 1`; otherwise writes
   * nothing and answers false.
   */
  commitIfUnchanged(next: ProfileRecord, publication: OutboxMessage): Promise<boolean>;
}
