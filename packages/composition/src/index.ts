export * from './adapter-modules.js';
export * from './adapter-settings.js';
export * from './clickhouse.module.js';
export * from './control-socket.js';
export * from './development-signing-key.js';
export * from './lifecycle.js';
export * from './mail.module.js';
export * from './memory.module.js';
export * from './migrate-stores.js';
export * from './nats.module.js';
export * from './postgres.module.js';
export type { AccountSettings } from './settings/accounts.settings.js';
export type { BusSettings } from './settings/bus.settings.js';
export {
  type DashboardConfiguration,
  type DashboardSettings,
  dashboardSettings,
} from './settings/dashboard.settings.js';
export type { HttpSettings } from './settings/http.settings.js';
export type { KeySettings } from './settings/keys.settings.js';
export type { LimitSettings } from './settings/limits.settings.js';
export type { ListSettings } from './settings/lists.settings.js';
export type { MailSettings } from './settings/mail.settings.js';
export type { NodeSettings } from './settings/nodes.settings.js';
export type { ObservabilitySettings } from './settings/observability.settings.js';
export type { OutboundSettings } from './settings/outbound.settings.js';
export type { QueryLogSettings } from './settings/query-logs.settings.js';
export type { ResolverSettings } from './settings/resolver.settings.js';
export * from './settings/setting-docs.js';
export * from './settings/settings.js';
export { DEFAULT_DATA_DIR, type StorageSettings } from './settings/storage.settings.js';
export * from './tokens.js';
export * from './use-cases/catalogue-checks.js';
export * from './use-cases/standalone-host.module.js';
export * from './use-cases/use-case.tokens.js';
export * from './use-cases/use-case-modules.js';
