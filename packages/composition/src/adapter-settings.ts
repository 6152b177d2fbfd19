import type { BusSettings } from './settings/bus.settings.js';
import type { MailSettings } from './settings/mail.settings.js';
import type { QueryLogSettings } from './settings/query-logs.settings.js';
import type { StorageSettings } from './settings/storage.settings.js';

/**
 * What chooses and opens the adapters: the sections of the settings the adapter families read, each family
 * its own. Unset URLs mean the embedded engine in the data dir (PostgreSQL, ClickHouse), the in-process bus,
 * or the outbox folder for mail; an absent section is all unset.
 */
export interface AdapterSettings {
  storage: Pick<StorageSettings, 'dataDir' | 'databaseUrl' | 'clickhouseUrl'>;
  bus?: BusSettings;
  mail?: MailSettings;
  /** The ceilings of cloud queries on the columnar store (CLOUD_QUERY_LIMITS when absent). */
  queryLogs?: Pick<QueryLogSettings, 'cloudQueryLimits'>;
}

/** Where the adapter families write what an operator should read (mail sent to the outbox, retries). */
export interface AdapterLog {
  info(message: string): void;
  warn(message: string): void;
}
