import type { AuditWriter } from '../audit/audit.ports.js';
import type { DeviceRepository } from '../devices/device.ports.js';
import type { DataExportRepository } from '../exports/data-export.ports.js';
import type { ClientErrorRepository, FeedbackRepository } from '../feedback/feedback.ports.js';
import type { IdentityRepositories } from '../identity/identity.ports.js';
import type { LinkedIpRepository } from '../linked-ips/linked-ip.ports.js';
import type { ListReportRepository } from '../list-reports/list-report.ports.js';
import type { MailQueueWriter } from '../mail/mail-queue.ports.js';
import type { NodeRepository } from '../nodes/node.ports.js';
import type { OperatorRepository } from '../operator/operator.ports.js';
import type { OperatorSearchRepository } from '../operator/operator-search.ports.js';
import type { OutboxWriter } from '../outbox/outbox.ports.js';
import type { PreferencesRepository } from '../preferences/preferences.ports.js';
import type { ProfileRepository } from '../profiles/profile.ports.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import type { WebhookRepository } from '../webhooks/webhook.ports.js';

/**
 * Every repository a storage offers in one transaction: what the adapters' units of work implement. No use
 * case takes it whole: each declares the few members it uses (a `*Scope` of its context's ports), and this
 * module, which imports every context, is imported by none of them, so the contexts stay free of cycles.
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
  /** Accounts and profiles of every organisation, found by operators. */
  operatorSearch: OperatorSearchRepository;
  /** Webhook endpoints, and the deliveries events queue in the transaction that makes them happen. */
  webhooks: WebhookRepository;
}

/** Runs work in one storage transaction offering every repository; it serves every use case's scope. */
export const UnitOfWork = Symbol.for('svc.UnitOfWork');
export interface UnitOfWork extends ScopedUnitOfWork<TransactionScope> {}
