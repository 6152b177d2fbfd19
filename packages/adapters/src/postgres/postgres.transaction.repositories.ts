import type pg from 'pg';
import type { TransactionRepositories } from '../shared/transaction-repositories.js';
import {
  PostgresClientErrorRepository,
  PostgresFeedbackRepository,
  PostgresPreferencesRepository,
} from './postgres.account-feedback.repositories.js';
import { PostgresAuditWriter } from './postgres.audit-log.js';
import { PostgresDataExportRepository } from './postgres.data-exports.repository.js';
import { PostgresDeviceRepository } from './postgres.devices.repository.js';
import { postgresIdentityRepositories } from './postgres.identity.repositories.js';
import { PostgresLinkedIpRepository } from './postgres.linked-ips.repository.js';
import { PostgresListReportRepository } from './postgres.list-reports.repository.js';
import { PostgresMailQueueWriter } from './postgres.mail-queue.js';
import { PostgresNodeRepository } from './postgres.nodes.repository.js';
import { PostgresOperatorRepository } from './postgres.operator.repository.js';
import { PostgresOperatorSearchRepository } from './postgres.operator-search.repository.js';
import { PostgresProfileRepository } from './postgres.profiles.repository.js';
import { PostgresWebhookRepository } from './postgres.webhooks.repository.js';

/** Every repository of one Postgres transaction, on its client. */
export function postgresTransactionRepositories(
  client: pg.PoolClient,
  counters: { mail: () => void },
): TransactionRepositories {
  return {
    mail: new PostgresMailQueueWriter(client, counters.mail),
    identity: postgresIdentityRepositories(client),
    profiles: new PostgresProfileRepository(client),
    linkedIps: new PostgresLinkedIpRepository(client),
    nodes: new PostgresNodeRepository(client),
    devices: new PostgresDeviceRepository(client),
    listReports: new PostgresListReportRepository(client),
    audit: new PostgresAuditWriter(client),
    preferences: new PostgresPreferencesRepository(client),
    clientErrors: new PostgresClientErrorRepository(client),
    feedback: new PostgresFeedbackRepository(client),
    operator: new PostgresOperatorRepository(client),
    operatorSearch: new PostgresOperatorSearchRepository(client),
    exports: new PostgresDataExportRepository(client),
    webhooks: new PostgresWebhookRepository(client),
  };
}
