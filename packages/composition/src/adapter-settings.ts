import type { QueryLogReaderLimits } from '@svc/adapters';

/**
 * What chooses and opens the adapters: the subset of the server's settings (parsed and documented in
 * `@svc/http-server`'s settings) that the adapter families read. Unset URLs mean the embedded engine in the
 * data dir (PostgreSQL, ClickHouse), the in-process bus, or the outbox folder for mail.
 */
export interface AdapterSettings {
  dataDir: string;
  databaseUrl?: string | undefined;
  clickhouseUrl?: string | undefined;
  natsUrl?: string | undefined;
  natsTlsCa?: string | undefined;
  smtpUrl?: string | undefined;
  /** The ceilings of cloud log queries on the columnar store (CLOUD_QUERY_LIMITS when unset). */
  cloudQueryLimits?: QueryLogReaderLimits | undefined;
}

/** Where the adapter families write what an operator should read (mail sent to the outbox, retries). */
export interface AdapterLog {
  info(message: string): void;
  warn(message: string): void;
}
