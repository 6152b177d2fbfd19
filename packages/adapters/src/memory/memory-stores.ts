import type { TransactionRepositories } from '../shared/transaction-repositories.js';
import { MemoryAccountFeedbackStore } from './memory.account-feedback.store.js';
import { MemoryAuditLog } from './memory.audit-log.js';
import { MemoryDataExportStore } from './memory.data-export.store.js';
import { MemoryDeviceStore } from './memory.device.store.js';
import { MemoryIdentityStore } from './memory.identity.store.js';
import { MemoryLinkedIpStore } from './memory.linked-ip.store.js';
import { MemoryListReportStore } from './memory.list-report.store.js';
import { MemoryMailQueue } from './memory.mail-queue.js';
import { MemoryNodeStore } from './memory.node.store.js';
import { MemoryOperatorStore } from './memory.operator.store.js';
import { memoryOperatorSearch } from './memory.operator-search.js';
import { MemoryProfileStore } from './memory.profile.store.js';
import { MemoryWebhookStore } from './memory.webhook.store.js';
import type { Snapshottable } from './memory-snapshot.js';

/** Every in-memory store of an engine-free server, and the repositories of one memory transaction. */
export class MemoryStores {
  readonly identity = new MemoryIdentityStore();
  readonly mailQueue = new MemoryMailQueue();
  readonly profiles = new MemoryProfileStore();
  readonly linkedIps = new MemoryLinkedIpStore();
  readonly nodes = new MemoryNodeStore();
  readonly devices = new MemoryDeviceStore((profileId) => this.profiles.has(profileId));
  readonly listReports = new MemoryListReportStore();
  readonly auditLog = new MemoryAuditLog();
  readonly accountFeedback = new MemoryAccountFeedbackStore();
  readonly operator = new MemoryOperatorStore((profileId) => this.profiles.orgOfLive(profileId));
  readonly dataExports = new MemoryDataExportStore();
  readonly webhooks = new MemoryWebhookStore();

  /** Stores a failed memory transaction restores. */
  get participants(): readonly Snapshottable[] {
    return [
      this.identity,
      this.mailQueue,
      this.profiles,
      this.linkedIps,
      this.nodes,
      this.devices,
      this.listReports,
      this.auditLog,
      this.accountFeedback,
      this.operator,
      this.dataExports,
      this.webhooks,
    ];
  }

  transactionRepositories(counters: { mail: () => void }): TransactionRepositories {
    return {
      mail: this.mailQueue.writer(counters.mail),
      identity: this.identity.repositories(),
      // Deleting a profile removes its links, nodes and devices, as ON DELETE CASCADE does in Postgres.
      profiles: this.nodes.cascadingFrom(
        this.devices.cascadingFrom(this.linkedIps.cascadingFrom(this.profiles.repository())),
      ),
      nodes: this.nodes.repository(),
      linkedIps: this.linkedIps.repository(),
      devices: this.devices.repository(),
      listReports: this.listReports.repository(),
      audit: this.auditLog.writer(),
      preferences: this.accountFeedback.preferences(),
      clientErrors: this.accountFeedback.clientErrors(),
      feedback: this.accountFeedback.feedback(),
      operator: this.operator.repository(),
      operatorSearch: memoryOperatorSearch(
        () => this.identity.accounts(),
        () => this.profiles.live(),
      ),
      exports: this.dataExports.repository(),
      webhooks: this.webhooks.repository(),
    };
  }
}
