import type { DeviceRepository } from '../devices/device.ports.js';
import type { FeedbackRepository } from '../feedback/feedback.ports.js';
import type {
  AccountReadRepository,
  ApiTokenRepository,
  SecondFactorRepository,
  SessionRepository,
} from '../identity/identity.ports.js';
import type { PasskeyRepository } from '../identity/passkey.ports.js';
import type { LinkedIpRepository } from '../linked-ips/linked-ip.ports.js';
import type { ListReportRepository } from '../list-reports/list-report.ports.js';
import type { NodeRepository } from '../nodes/node.ports.js';
import type { KeysetPage } from '../pagination/keyset.js';
import type { PreferencesRepository } from '../preferences/preferences.ports.js';
import type { ProfileReadRepository } from '../profiles/profile.ports.js';
import type { WebhookEventScope } from '../webhooks/webhook.ports.js';

/** The stored state of an export; `expired` is also read from a ready export whose expiry passed. */
export type DataExportState = 'pending' | 'ready' | 'failed' | 'expired';

/** A data export as stored, without its archive (read chunk by chunk, only for a download). */
export interface DataExportRecord {
  id: string;
  accountId: string;
  orgId: string;
  status: DataExportState;
  createdAt: Date;
  completedAt: Date | null;
  expiresAt: Date | null;
  sizeBytes: number | null;
  /** Hex SHA-256 of the whole archive; null until ready. */
  sha256: string | null;
  /** How many chunks the archive is stored in (numbered from 0); null until ready. */
  chunkCount: number | null;
  /** How many times a worker claimed it: a build that keeps failing is given up (failed). */
  attempts: number;
}

/**
 * One claim of a pending export: its id and the attempt the claim counted. Writes carry it, so that a server
 * whose lease lapsed (another server claimed the export again) can no longer write into the archive.
 */
export interface DataExportClaim {
  id: string;
  attempt: number;
}

/** What a finished archive is: how many chunks, how many bytes, and their SHA-256 (hex). */
export interface DataExportArchiveSummary {
  chunkCount: number;
  sizeBytes: number;
  sha256: string;
}

/**
 * Data exports and their archives, stored in chunks. Claims take the row lock and skip rows locked by another
 * server, and a claim is leased, so several API servers build each export once and a crashed server's claim
 * is retried; the chunks of an attempt that never finished are removed when the export is claimed again.
 */
export interface DataExportRepository {
  /** Inserts a pending export; false when the account has one pending already (409 export_in_progress). */
  create(record: DataExportRecord): Promise<boolean>;
  /** The account's export; null for another account's. */
  find(accountId: string, id: string): Promise<DataExportRecord | null>;
  /** The account's exports, newest first, after the keyset position. */
  list(accountId: string, page: KeysetPage): Promise<DataExportRecord[]>;
  /**
   * Claims the oldest pending export whose lease is free at `now`, leasing it until `leaseUntil`, counting the
   * attempt and removing the chunks an earlier attempt left; null when none is free.
   */
  claimPending(now: Date, leaseUntil: Date): Promise<DataExportRecord | null>;
  /**
   * Stores chunk `seq` of the claimed export's archive (replacing one an earlier attempt wrote) and extends
   * the lease to `leaseUntil`; false when the claim is no longer current (the export was claimed again or is
   * no longer pending), and then nothing is written.
   */
  writeChunk(claim: DataExportClaim, seq: number, bytes: Uint8Array, leaseUntil: Date): Promise<boolean>;
  /**
   * Marks the claimed export ready with its archive's summary, removing any chunk numbered past it; false
   * when the claim is no longer current. Called in the transaction that writes the last chunk.
   */
  complete(
    claim: DataExportClaim,
    archive: DataExportArchiveSummary,
    completedAt: Date,
    expiresAt: Date,
  ): Promise<boolean>;
  /** Marks a pending export failed and removes its chunks. */
  fail(id: string, at: Date): Promise<void>;
  /** Chunk `seq` of the account's export when it is ready and unexpired at `now`; null otherwise. */
  chunk(accountId: string, id: string, seq: number, now: Date): Promise<Uint8Array | null>;
  /** Marks ready exports whose expiry is at or before `now` expired and removes their chunks; how many. */
  expireDue(now: Date): Promise<number>;
  /** Deletes every export of the account, chunks with them (account erasure); how many. */
  eraseAll(accountId: string): Promise<number>;
}

/** A SHA-256 fed piece by piece, as the archive is written. */
export interface RunningDigest {
  update(bytes: Uint8Array): void;
  /** The hex digest of everything fed; call once, at the end. */
  hex(): string;
}

/** What the data export use cases use of a transaction. */
export interface DataExportScope extends WebhookEventScope {
  exports: DataExportRepository;
}

/**
 * What collecting an account's archive reads in one transaction (one consistent view): the lists of every
 * context that keeps something about the account, read only.
 */
export interface AccountArchiveScope {
  identity: {
    accounts: Pick<AccountReadRepository, 'findById'>;
    sessions: Pick<SessionRepository, 'listLive'>;
    apiTokens: Pick<ApiTokenRepository, 'listByAccount'>;
    passkeys: Pick<PasskeyRepository, 'listByAccount'>;
    secondFactors: Pick<SecondFactorRepository, 'totp' | 'remainingRecoveryCodes'>;
  };
  preferences: Pick<PreferencesRepository, 'find'>;
  profiles: Pick<ProfileReadRepository, 'list'>;
  linkedIps: Pick<LinkedIpRepository, 'list'>;
  devices: Pick<DeviceRepository, 'list'>;
  listReports: Pick<ListReportRepository, 'list'>;
  nodes: Pick<NodeRepository, 'list'>;
  feedback: Pick<FeedbackRepository, 'byAccount'>;
}
