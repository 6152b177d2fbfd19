import type { AuditWriter } from '../audit/audit.ports.js';
import type { DeviceRepository } from '../devices/device.ports.js';
import type { DataExportRepository } from '../exports/data-export.ports.js';
import type { ClientErrorRepository, FeedbackRepository } from '../feedback/feedback.ports.js';
import type { IdentityRepositories } from '../identity/identity.ports.js';
import type { LinkedIpRepository } from '../linked-ips/linked-ip.ports.js';
import type { ListReportRepository } from '../list-reports/list-report.ports.js';
import type { MailQueueWriter } from '../mail/mail-queue.port.js';
import type { NodeRepository } from '../nodes/node.ports.js';
import type { OperatorRepository } from '../operator/operator.ports.js';
import type { PreferencesRepository } from '../preferences/preferences.js';
import type { ProfileRepository } from '../profiles/profile.ports.js';

/** A message written in the same transaction as the change it announces (transactional outbox). */
export interface OutboxMessage {
  /** Bus subject, for example `profiles.abc123` or `operator.changed`. */
  subject: string;
  /** JSON-serialisable body. */
  payload: unknown;
}

/** Writes outbox rows inside the caller's transaction; the relay publishes them after commit. */
export interface OutboxWriter {
  enqueue(message: OutboxMessage): Promise<void>;
}

/**
 * What the repositories of one transaction offer. Later contexts add their repositories here; everything used
 * inside `UnitOfWork.run` commits or rolls back together.
 */
export interface TransactionScope {
  outbox: OutboxWriter;
  /** Mail sent only if the transaction commits. */
  mail: MailQueueWriter;
  identity: IdentityRepositories;
  profiles: ProfileRepository;
  linkedIps: LinkedIpRepository;
  devices: DeviceRepository;
  listReports: ListReportRepository;
  /** Audit entries, appended only if the change they record commits. */
  audit: AuditWriter;
  /** Account preferences (spec 2.2). */
  preferences: PreferencesRepository;
  /** Dashboard error reports (spec 4.11). */
  clientErrors: ClientErrorRepository;
  /** Dashboard feedback. */
  feedback: FeedbackRepository;
  /** Self-hosted nodes of profiles. */
  nodes: NodeRepository;
  /** GDPR data exports and their archives. */
  exports: DataExportRepository;
  /** Operator blocks, source blocks, their published files and profile suspensions. */
  operator: OperatorRepository;
}

/** Runs work in one storage transaction. */
export const UnitOfWork = Symbol.for('svc.UnitOfWork');
export interface UnitOfWork {
  run<T>(work: (tx: TransactionScope) => Promise<T>): Promise<T>;
}

/** Drains the outbox to the bus: at least once, in order per subject. */
export const OutboxRelay = Symbol.for('svc.OutboxRelay');
export interface OutboxRelay {
  /** Publishes every pending message once; returns how many were published. */
  drain(): Promise<number>;
  /** Starts draining in the background (after commits and on a short interval). */
  start(): void;
  /** Stops background draining and waits for a drain in flight. */
  stop(): Promise<void>;
}
