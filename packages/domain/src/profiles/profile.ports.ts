import type { OutboxMessage, TransactionScope } from '../outbox/outbox.ports.js';
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
 * A change to a stored profile, applied under its row lock inside the write's transaction: it returns the
 * profile's new fields and may write the profile's other tables (linked IPs, …) through `tx`.
 */
export type ProfileChange = (
  current: ProfileRecord,
  tx: TransactionScope,
) => Omit<ProfileRecord, 'version' | 'updatedAt'> | Promise<Omit<ProfileRecord, 'version' | 'updatedAt'>>;

/**
 * A versioned write of a profile (spec 4.2): what contexts that keep parts of the profile's edge document
 * (linked IPs) need of the profiles, so that every change to such a part bumps the profile's version and
 * republishes its document.
 */
export interface ProfileWriter {
  /**
   * Applies `change` under the profile's row lock as one versioned write: checks If-Match and suspension,
   * bumps the version by one, saves and publishes, all in one transaction; 404 when the organisation has no
   * such profile.
   */
  write(
    orgId: string,
    id: string,
    expectedVersion: number | undefined,
    change: ProfileChange,
  ): Promise<ProfileRecord>;
}

/**
 * A profile as a writer reads it before committing, with its linked addresses (the part of its edge document
 * kept outside its row) read in the same statement: every change to the links is a versioned write of the
 * profile, so a commit at the version read publishes addresses that are still current.
 */
export interface ProfileSnapshot {
  record: ProfileRecord;
  /** The addresses linked to the profile (spec 1.5), in ascending text order, empty DDNS slots left out. */
  linkedIps: readonly string[];
}

/**
 * A profile write in one atomic step, without a lock held across round trips: a writer reads the profile,
 * builds its next version and publication, and commits them only if nobody wrote the profile meanwhile.
 */
export const ProfileCommitter = Symbol.for('svc.ProfileCommitter');
export interface ProfileCommitter {
  /**
   * The organisation's live profile and its linked addresses, as a writer reads them before
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
