import { z } from 'zod';
import { type AccountSettings, accountSettings, accountVariables } from './accounts.settings.js';
import { type BusSettings, busSettings, busVariables } from './bus.settings.js';
import {
  type DashboardSettings,
  dashboardSection,
  dashboardSettings,
  dashboardVariables,
} from './dashboard.settings.js';
import { type HttpSettings, httpSettings, httpVariables } from './http.settings.js';
import { type KeySettings, keySettings, keyVariables } from './keys.settings.js';
import { type LimitSettings, limitSettings, limitVariables } from './limits.settings.js';
import { type ListSettings, listSettings, listVariables } from './lists.settings.js';
import { type MailSettings, mailSettings, mailVariables } from './mail.settings.js';
import { type NodeSettings, nodeSettings, nodeVariables } from './nodes.settings.js';
import {
  type ObservabilitySettings,
  observabilitySettings,
  observabilityVariables,
} from './observability.settings.js';
import { type OutboundSettings, outboundSettings, outboundVariables } from './outbound.settings.js';
import { type QueryLogSettings, queryLogSettings, queryLogVariables } from './query-logs.settings.js';
import { type ResolverSettings, resolverSettings, resolverVariables } from './resolver.settings.js';
import { settingDocs } from './setting-docs.js';
import { type StorageSettings, storageSettings, storageVariables } from './storage.settings.js';

/** The mode, which several sections' defaults follow. */
const modeVariables = {
  SVC_ENV: z.enum(['development', 'production']).default('production').register(settingDocs, {
    defaultText: '`development` under `npm start`, `npm run svc`',
    description:
      '`development`: cookie not Secure, no HSTS, signup `open` unless set, secret and signing key generated; else `production`',
  }),
};

/**
 * Every setting of RUNNER.md, as read from flags and the environment. Parsing happens once at start; a bad
 * value stops the start with a message naming the setting. Each is declared and documented in its section's
 * file ({@link settingDocs}); this is their order in the README's configuration table (`npm run docs`) and
 * `svc config`.
 */
export const RawSettings = z.object({
  SVC_ENV: modeVariables.SVC_ENV,
  HOST: httpVariables.HOST,
  PORT: httpVariables.PORT,
  SVC_DATA_DIR: storageVariables.SVC_DATA_DIR,
  DATABASE_URL: storageVariables.DATABASE_URL,
  CLICKHOUSE_URL: storageVariables.CLICKHOUSE_URL,
  NATS_URL: busVariables.NATS_URL,
  NATS_TLS_CA: busVariables.NATS_TLS_CA,
  SMTP_URL: mailVariables.SMTP_URL,
  SVC_BASE_URL: httpVariables.SVC_BASE_URL,
  SVC_DASHBOARD_URL: dashboardVariables.SVC_DASHBOARD_URL,
  SVC_DASHBOARD_ORIGINS: dashboardVariables.SVC_DASHBOARD_ORIGINS,
  SVC_SIGNUP_MODE: accountVariables.SVC_SIGNUP_MODE,
  SVC_SIGNUP_ALLOWLIST: accountVariables.SVC_SIGNUP_ALLOWLIST,
  SVC_SECRET: keyVariables.SVC_SECRET,
  SVC_PROFILE_SIGNING_KEYS: keyVariables.SVC_PROFILE_SIGNING_KEYS,
  SVC_NODE_ALERT_DELAY_SECONDS: nodeVariables.SVC_NODE_ALERT_DELAY_SECONDS,
  SVC_SIGNUP_ORIGINS: dashboardVariables.SVC_SIGNUP_ORIGINS,
  SVC_WEBAUTHN_RP_ID: dashboardVariables.SVC_WEBAUTHN_RP_ID,
  SVC_GEOIP_DB: queryLogVariables.SVC_GEOIP_DB,
  SVC_LOG_LEVEL: observabilityVariables.SVC_LOG_LEVEL,
  SVC_TRUST_PROXY: httpVariables.SVC_TRUST_PROXY,
  SVC_RATE_LIMIT_PER_MINUTE: httpVariables.SVC_RATE_LIMIT_PER_MINUTE,
  SVC_BODY_LIMIT_BYTES: httpVariables.SVC_BODY_LIMIT_BYTES,
  SVC_PROBLEM_BASE: httpVariables.SVC_PROBLEM_BASE,
  SVC_RESOLVER_DOMAIN: resolverVariables.SVC_RESOLVER_DOMAIN,
  SVC_ANYCAST_V6_PREFIXES: resolverVariables.SVC_ANYCAST_V6_PREFIXES,
  SVC_ANYCAST_V4: resolverVariables.SVC_ANYCAST_V4,
  SVC_RULES_LIMIT: limitVariables.SVC_RULES_LIMIT,
  SVC_LINKED_IPS_PER_PROFILE: limitVariables.SVC_LINKED_IPS_PER_PROFILE,
  SVC_LINKED_IPS_PER_ACCOUNT: limitVariables.SVC_LINKED_IPS_PER_ACCOUNT,
  SVC_ECS_CAP_V4: limitVariables.SVC_ECS_CAP_V4,
  SVC_ECS_CAP_V6: limitVariables.SVC_ECS_CAP_V6,
  SVC_DELETION_COOLING_OFF_DAYS: accountVariables.SVC_DELETION_COOLING_OFF_DAYS,
  SVC_SHUTDOWN_DELAY_SECONDS: httpVariables.SVC_SHUTDOWN_DELAY_SECONDS,
  SVC_METRICS_TOKEN: observabilityVariables.SVC_METRICS_TOKEN,
  SVC_METRICS_ENABLED: observabilityVariables.SVC_METRICS_ENABLED,
  SVC_ALLOW_EMBEDDED: storageVariables.SVC_ALLOW_EMBEDDED,
  SVC_NODE_LINK_BYTES_PER_SECOND: nodeVariables.SVC_NODE_LINK_BYTES_PER_SECOND,
  SVC_NODE_LINK_MESSAGES_PER_SECOND: nodeVariables.SVC_NODE_LINK_MESSAGES_PER_SECOND,
  SVC_QUERY_MAX_ROWS_TO_READ: queryLogVariables.SVC_QUERY_MAX_ROWS_TO_READ,
  SVC_QUERY_MAX_MEMORY_BYTES: queryLogVariables.SVC_QUERY_MAX_MEMORY_BYTES,
  SVC_QUERY_TIMEOUT_SECONDS: queryLogVariables.SVC_QUERY_TIMEOUT_SECONDS,
  SVC_HEAP_GROWTH_PERCENT: httpVariables.SVC_HEAP_GROWTH_PERCENT,
  SVC_LIST_REFRESH_HOURS: listVariables.SVC_LIST_REFRESH_HOURS,
  SVC_LIST_MAX_BYTES: listVariables.SVC_LIST_MAX_BYTES,
  SVC_LIST_FETCH_TIMEOUT_SECONDS: listVariables.SVC_LIST_FETCH_TIMEOUT_SECONDS,
  SVC_LIST_MIRROR_URL: listVariables.SVC_LIST_MIRROR_URL,
  SVC_OUTBOUND_ALLOW_PRIVATE: outboundVariables.SVC_OUTBOUND_ALLOW_PRIVATE,
});
export type RawSettings = z.infer<typeof RawSettings>;

/** The validated settings the server runs with, in sections; each module is handed the sections it reads. */
export interface Settings {
  env: 'development' | 'production';
  http: HttpSettings;
  dashboard: DashboardSettings;
  storage: StorageSettings;
  bus: BusSettings;
  mail: MailSettings;
  keys: KeySettings;
  accounts: AccountSettings;
  nodes: NodeSettings;
  resolver: ResolverSettings;
  limits: LimitSettings;
  queryLogs: QueryLogSettings;
  observability: ObservabilitySettings;
  lists: ListSettings;
  outbound: OutboundSettings;
}

/** A setting that failed validation; the message names it. */
export class SettingsError extends Error {
  constructor(readonly issues: { setting: string; message: string }[]) {
    super(`Invalid settings: ${issues.map((issue) => `${issue.setting}: ${issue.message}`).join('; ')}`);
    this.name = 'SettingsError';
  }
}

const KNOWN = new Set(Object.keys(RawSettings.shape));

/**
 * The settings once the server is bound: a PORT of 0 is only known then, so the default base URL, problem
 * base and dashboard settings that derive from it name the real port.
 */
export function settingsForBoundUrl(settings: Settings, url: string): Settings {
  const http = settings.http;
  if (!http.baseUrlDefaulted) return settings;
  return {
    ...settings,
    http: {
      ...http,
      baseUrl: url,
      problemBase: http.problemBaseDefaulted ? `${url}/problems` : http.problemBase,
    },
    dashboard: dashboardSettings(settings.dashboard.configured, url),
  };
}

/**
 * Parses settings from environment-style key/values (flags are merged in by the caller). Unknown `SVC_*`
 * variables are refused so that a typo never silently falls back to a default.
 */
export function parseSettings(source: Record<string, string | undefined>): Settings {
  const unknown = Object.keys(source).filter((key) => key.startsWith('SVC_') && !KNOWN.has(key));
  const parsed = RawSettings.safeParse(
    Object.fromEntries(
      Object.entries(source).filter(([key, value]) => KNOWN.has(key) && value !== undefined && value !== ''),
    ),
  );
  const issues = unknown.map((setting) => ({ setting, message: 'unknown setting' }));
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      issues.push({ setting: String(issue.path[0] ?? '?'), message: issue.message });
  }
  if (issues.length > 0 || !parsed.success) throw new SettingsError(issues);
  const raw = parsed.data;
  const development = raw.SVC_ENV === 'development';
  if (!development && raw.SVC_SECRET === undefined) {
    throw new SettingsError([{ setting: 'SVC_SECRET', message: 'is required in production' }]);
  }
  const http = httpSettings(raw, development);
  return {
    env: raw.SVC_ENV,
    http,
    dashboard: dashboardSection(raw, http.baseUrl),
    storage: storageSettings(raw),
    bus: busSettings(raw),
    mail: mailSettings(raw),
    keys: keySettings(raw),
    accounts: accountSettings(raw, development),
    nodes: nodeSettings(raw),
    resolver: resolverSettings(raw),
    limits: limitSettings(raw),
    queryLogs: queryLogSettings(raw),
    observability: observabilitySettings(raw),
    lists: listSettings(raw),
    outbound: outboundSettings(raw),
  };
}
