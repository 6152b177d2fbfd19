import type { AuditScope } from '../audit/audit.ports.js';
import type { ClientErrorRepository, FeedbackRepository } from '../feedback/feedback.ports.js';
import type { AccountReadRepository } from '../identity/identity.ports.js';
import type { ListReportRepository } from '../list-reports/list-report.ports.js';
import type { MailScope } from '../mail/mail-queue.ports.js';
import type { OutboxScope } from '../outbox/outbox.ports.js';
import type { KeysetPage } from '../pagination/keyset.js';
import type {
  ProfilePublishScope,
  ProfileReadRepository,
  ProfileWriteRepository,
} from '../profiles/profile.ports.js';
import type { WebhookEventScope } from '../webhooks/webhook.ports.js';
import type { OperatorBlockReason } from './operator-block.schemas.js';
import type { OperatorEntryStatus } from './operator-scope.schemas.js';

/** An operator block as stored (spec 2.8). */
export interface OperatorBlockRecord {
  id: string;
  /** Rule pattern in normal form (spec 2.4). */
  pattern: string;
  reasonCode: OperatorBlockReason;
  publicRef: string;
  /** Internal; never published. */
  note: string;
  pops: string[];
  jurisdictions: string[];
  expiresAt: Date | null;
  createdBy: string;
  createdAt: Date;
  removedBy: string | null;
  removedAt: Date | null;
  /** When a republish left the entry out because its expiry had passed; it then no longer holds its pattern. */
  expiredAt: Date | null;
}

/** An abusive source prefix as stored (spec 2.9). */
export interface SourceBlockRecord {
  id: string;
  /** Masked prefix. */
  cidr: string;
  reason: string;
  pops: string[];
  jurisdictions: string[];
  expiresAt: Date;
  createdBy: string;
  createdAt: Date;
  removedBy: string | null;
  removedAt: Date | null;
  expiredAt: Date | null;
}

/** The versioned files the operator entries are published as. */
export type OperatorFileName = 'operator_blocks' | 'operator_sources';

/** An operator's suspension of a profile: the reason is for operators only, never shown to the owner. */
export interface ProfileSuspensionRecord {
  profileId: string;
  reason: string;
  suspendedBy: string;
  suspendedAt: Date;
}

/** Entries of one kind: what the blocks and the source blocks have in common. */
export interface OperatorEntryRepository<T> {
  /** Inserts an entry; `exists` when the store's uniqueness (a live operator block's pattern) refuses it. */
  insert(entry: T): Promise<'inserted' | 'exists'>;
  find(id: string): Promise<T | null>;
  /** Marks a not yet removed entry removed; null when there is none. */
  remove(id: string, by: string, at: Date): Promise<T | null>;
  /** Newest first after the keyset position, of `status` at `now` when given. */
  list(status: OperatorEntryStatus | undefined, now: Date, page: KeysetPage): Promise<T[]>;
  /** Entries neither removed nor expired at `now`, oldest first: the content of the published file. */
  live(now: Date): Promise<T[]>;
  /** Marks entries whose expiry passed by `now` (and not marked yet) expired; returns how many. */
  markExpired(now: Date): Promise<number>;
}

/**
 * Operator entries inside a transaction. Every change first locks its file's row ({@link lockFile}), so that
 * changes to one file serialise and its version goes up by exactly one per change, gapless, on every server.
 */
export interface OperatorRepository {
  blocks: OperatorEntryRepository<OperatorBlockRecord>;
  sources: OperatorEntryRepository<SourceBlockRecord>;
  /** Locks the file until the transaction ends and returns its current version (0 before any change). */
  lockFile(file: OperatorFileName): Promise<number>;
  /** Stores the file's new version and document (found locked in this transaction). */
  saveFile(file: OperatorFileName, version: number, document: unknown, at: Date): Promise<void>;
  /** The file's current version and document (version 0 and null before its first publication). */
  readFile(file: OperatorFileName): Promise<{ version: number; document: unknown }>;
  /** The organisation of a live (not tombstoned) profile of any organisation, or null. */
  profileOrg(profileId: string): Promise<string | null>;
  findSuspension(profileId: string): Promise<ProfileSuspensionRecord | null>;
  /** Records a suspension (replacing one) or, with null, clears it. */
  setSuspension(profileId: string, suspension: ProfileSuspensionRecord | null): Promise<void>;
}

/** What writing and announcing the next version of an operator file uses of a transaction. */
export interface OperatorFileScope extends OutboxScope {
  operator: Pick<OperatorRepository, 'blocks' | 'sources' | 'lockFile' | 'saveFile'>;
}

/** What adding and removing operator blocks and source blocks uses of a transaction: the file, audited. */
export interface OperatorEntryScope extends OperatorFileScope, AuditScope {}

/**
 * What suspending and reinstating profiles uses of a transaction: the suspension, the profile's row and its
 * republished document, audited.
 */
export interface ProfileSuspensionScope extends ProfilePublishScope, AuditScope {
  operator: Pick<OperatorRepository, 'findSuspension' | 'profileOrg' | 'setSuspension'>;
  profiles: ProfileReadRepository & Pick<ProfileWriteRepository, 'save'>;
}

/** What triaging list reports uses of a transaction: the reports, the reporter to mail, the audit log. */
export interface ListReportTriageScope extends AuditScope, MailScope, WebhookEventScope {
  identity: { accounts: Pick<AccountReadRepository, 'findById'> };
  listReports: Pick<ListReportRepository, 'findForTriage' | 'resolve' | 'triageQueue'>;
}

/** What the operator's views of dashboard reports use of a transaction. */
export interface OperatorViewScope {
  clientErrors: Pick<ClientErrorRepository, 'page'>;
  feedback: Pick<FeedbackRepository, 'page'>;
}
