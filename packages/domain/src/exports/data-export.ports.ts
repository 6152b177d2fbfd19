import type { KeysetPage } from '../pagination/keyset.js';

/** The stored state of an export; `expired` is also read from a ready export whose expiry passed. */
export type DataExportState = 'pending' | 'ready' | 'failed' | 'expired';

/** A data export as stored, without its archive (read only for a download). */
export interface DataExportRecord {
  id: string;
  accountId: string;
  orgId: string;
  status: DataExportState;
  createdAt: Date;
  completedAt: Date | null;
  expiresAt: Date | null;
  sizeBytes: number | null;
  /** How many times a worker claimed it: a build that keeps failing is given up (failed). */
  attempts: number;
}

/**
 * Data exports and their archives. Claims take the row lock and skip rows locked by another server, and a
 * claim is leased, so several API servers build each export once and a crashed server's claim is retried.
 */
export interface DataExportRepository {
  /** Inserts a pending export; false when the account has one pending already (409 export_in_progress). */
  create(record: DataExportRecord): Promise<boolean>;
  /** The account's export; null for another account's. */
  find(accountId: string, id: string): Promise<DataExportRecord | null>;
  /** The account's exports, newest first, after the keyset position. */
  list(accountId: string, page: KeysetPage): Promise<DataExportRecord[]>;
  /**
   * Claims the oldest pending export whose lease is free at `now`, leasing it until `leaseUntil` and counting
   * the attempt; null when none is free.
   */
  claimPending(now: Date, leaseUntil: Date): Promise<DataExportRecord | null>;
  /** Stores the archive of a pending export and marks it ready; false when it is no longer pending. */
  complete(id: string, archive: string, completedAt: Date, expiresAt: Date): Promise<boolean>;
  /** Marks a pending export failed. */
  fail(id: string, at: Date): Promise<void>;
  /** The archive of the account's export when it is ready and unexpired at `now`; null otherwise. */
  archive(accountId: string, id: string, now: Date): Promise<string | null>;
  /** Marks ready exports whose expiry is at or before `now` expired and removes their archives; how many. */
  expireDue(now: Date): Promise<number>;
  /** Deletes every export of the account, archives with them (account erasure); how many. */
  eraseAll(accountId: string): Promise<number>;
}
