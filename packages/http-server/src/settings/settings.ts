import { CLOUD_QUERY_LIMITS, type QueryLogReaderLimits } from '@svc/adapters';
import { z } from 'zod';

/** A comma-separated setting as its trimmed, non-empty entries. */
const commaList = z.string().transform((value) =>
  value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0),
);

const originList = commaList.pipe(z.array(z.url().transform((url) => new URL(url).origin)));

const urlWithSchemes = (schemes: string[]) =>
  z
    .string()
    .refine(
      (value) => URL.canParse(value) && schemes.includes(new URL(value).protocol),
      `must be a URL with scheme ${schemes.map((scheme) => scheme.replace(':', '')).join(' or ')}`,
    );

/**
 * Every setting of RUNNER.md, as read from flags and the environment. Parsing happens once at start; a bad
 * value stops the start with a message naming the setting.
 */
export const RawSettings = z.object({
  SVC_ENV: z.enum(['development', 'production']).default('production'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  SVC_DATA_DIR: z.string().min(1).default('./.svc-data'),
  DATABASE_URL: urlWithSchemes(['postgres:', 'postgresql:']).optional(),
  CLICKHOUSE_URL: urlWithSchemes(['http:', 'https:']).optional(),
  NATS_URL: urlWithSchemes(['nats:', 'tls:']).optional(),
  SMTP_URL: urlWithSchemes(['smtp:', 'smtps:']).optional(),
  SVC_BASE_URL: z.url().optional(),
  SVC_DASHBOARD_URL: z.url().default('http://localhost:3000'),
  SVC_DASHBOARD_ORIGINS: originList.optional(),
  SVC_SIGNUP_MODE: z.enum(['open', 'invite', 'closed']).optional(),
  SVC_SIGNUP_ALLOWLIST: commaList
    .transform((entries) => entries.map((entry) => entry.toLowerCase()))
    .pipe(
      z.array(
        z
          .string()
          .regex(
            /^(@?[a-z0-9.-]+\.[a-z]{2,}|[^@\s]+@[a-z0-9.-]+\.[a-z]{2,})$/,
            'must list addresses or domains',
          ),
      ),
    )
    .optional(),
  SVC_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SVC_PROFILE_SIGNING_KEYS: z.string().min(1).optional(),
  SVC_NODE_ALERT_DELAY_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  SVC_SIGNUP_ORIGINS: originList.optional(),
  SVC_WEBAUTHN_RP_ID: z.string().min(1).optional(),
  SVC_GEOIP_DB: z.string().min(1).optional(),
  SVC_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SVC_TRUST_PROXY: z.string().min(1).optional(),
  SVC_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  SVC_BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(10_485_760).default(1_048_576),
  SVC_PROBLEM_BASE: z.url().optional(),
  SVC_RESOLVER_DOMAIN: z
    .string()
    .regex(
      /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
      'must be a lower-case domain name',
    )
    .default('dns.svc.example'),
  SVC_ANYCAST_V6_PREFIXES: commaList
    .pipe(
      z.array(
        z
          .string()
          .regex(
            /^[0-9a-f]{1,4}:[0-9a-f]{1,4}:[0-9a-f]{1,4}::(\/48)?$/,
            'must list IPv6 /48 prefixes such as 2001:db8:100::/48',
          )
          .transform((prefix) => prefix.replace(/\/48$/, '')),
      ),
    )
    .default(['2001:db8:100::', '2001:db8:200::']),
  SVC_ANYCAST_V4: commaList
    .pipe(z.array(z.ipv4('must list IPv4 addresses')))
    .default(['192.0.2.53', '198.51.100.53']),
  SVC_RULES_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  SVC_ECS_CAP_V4: z.coerce.number().int().min(0).max(32).default(32),
  SVC_ECS_CAP_V6: z.coerce.number().int().min(0).max(128).default(128),
  SVC_DELETION_COOLING_OFF_DAYS: z.coerce.number().int().min(1).max(365).default(14),
  SVC_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  SVC_QUERY_MAX_ROWS_TO_READ: z.coerce
    .number()
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .default(CLOUD_QUERY_LIMITS.maxRowsToRead),
  SVC_QUERY_MAX_MEMORY_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .default(CLOUD_QUERY_LIMITS.maxMemoryBytes),
  SVC_QUERY_TIMEOUT_SECONDS: z.coerce
    .number()
    .positive()
    .max(3_600)
    .default(CLOUD_QUERY_LIMITS.maxExecutionSeconds),
  SVC_HEAP_GROWTH_PERCENT: z.coerce.number().int().min(0).max(1_000).default(50),
  SVC_LIST_REFRESH_HOURS: z.coerce.number().int().min(0).max(720).default(24),
  SVC_LIST_MAX_BYTES: z.coerce.number().int().min(1024).max(2_147_483_647).default(67_108_864),
  SVC_LIST_FETCH_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3_600).default(120),
  SVC_LIST_MIRROR_URL: urlWithSchemes(['http:', 'https:']).optional(),
});
export type RawSettings = z.infer<typeof RawSettings>;

/** The validated settings the server runs with. */
export interface Settings {
  env: 'development' | 'production';
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  clickhouseUrl: string | undefined;
  natsUrl: string | undefined;
  smtpUrl: string | undefined;
  baseUrl: string;
  /** True when SVC_BASE_URL was not set: the server then names its bound address. */
  baseUrlDefaulted: boolean;
  dashboardUrl: string;
  dashboardOrigins: string[];
  signupMode: 'open' | 'invite' | 'closed';
  /** Addresses and domains that may sign up in invite mode without a code. */
  signupAllowlist: string[];
  /** Key material; undefined means "generate one and keep it in the data dir" (development only). */
  secret: string | undefined;
  /**
   * Ed25519 PKCS#8 keys signing node profile documents, comma-separated (PEM or base64 DER), the first signing;
   * undefined means a development key kept in the data dir, or no signing in production.
   */
  profileSigningKeys: string | undefined;
  /** How long a node's link may stay down before its organisation's owners are emailed (spec 8). */
  nodeAlertDelaySeconds: number;
  signupOrigins: string[];
  webauthnRpId: string;
  geoipDb: string | undefined;
  logLevel: RawSettings['SVC_LOG_LEVEL'];
  /** Express `trust proxy` value: unset trusts no proxy (the socket address is the client). */
  trustProxy: string | undefined;
  rateLimitPerMinute: number;
  bodyLimitBytes: number;
  problemBase: string;
  problemBaseDefaulted: boolean;
  /** Where the resolver fleet answers (profile endpoints). */
  resolver: { domain: string; ipv6Prefixes: string[]; ipv4Anycast: string[] };
  /** The plan's limit of rules per profile (422 too_many_rules beyond). */
  rulesLimit: number;
  /** The operator's cap on the ECS source prefixes the resolvers forward (spec 2.3 settings.ecs). */
  ecsOperatorCap: { v4: number; v6: number };
  /** Days between an account deletion request and its erasure (the owner can undelete until then). */
  deletionCoolingOffDays: number;
  /** Bearer token that GET /metrics demands; unset leaves /metrics open (keep it off the public listener). */
  metricsToken: string | undefined;
  /**
   * How far past its live size `svc serve` lets the JavaScript heap grow before the next full collection,
   * in percent (V8's --heap-growing-percent); 0 leaves V8's own policy, which grows up to 4 times the live
   * size under a busy server's allocation rate.
   */
  heapGrowthPercent: number;
  /** Session cookies are Secure (and HSTS is sent) everywhere but development. */
  secureCookies: boolean;
  /**
   * The list pipeline: hours between refreshes of the catalogue's sources (0 turns the schedule off; `svc
   * lists refresh` still works), the largest source body read, the time-out of one fetch attempt, and a
   * mirror to fetch every source from (`<mirror>/<source id>`) instead of its upstream address.
   */
  lists: { refreshHours: number; maxBytes: number; fetchTimeoutMs: number; mirrorUrl: string | undefined };
  /**
   * Ceilings of one cloud log or analytics query (spec 8): rows read and memory past which it is 422
   * query_too_expensive, and the run time past which the store cancels it (504 query_timeout).
   */
  cloudQueryLimits: QueryLogReaderLimits;
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
  const dashboardOrigins = raw.SVC_DASHBOARD_ORIGINS ?? [new URL(raw.SVC_DASHBOARD_URL).origin];
  const baseUrl = (
    raw.SVC_BASE_URL ?? `http://${raw.HOST.includes(':') ? `[${raw.HOST}]` : raw.HOST}:${raw.PORT}`
  ).replace(/\/+$/, '');
  return {
    env: raw.SVC_ENV,
    host: raw.HOST,
    port: raw.PORT,
    dataDir: raw.SVC_DATA_DIR,
    databaseUrl: raw.DATABASE_URL,
    clickhouseUrl: raw.CLICKHOUSE_URL,
    natsUrl: raw.NATS_URL,
    smtpUrl: raw.SMTP_URL,
    baseUrl,
    baseUrlDefaulted: raw.SVC_BASE_URL === undefined,
    dashboardUrl: raw.SVC_DASHBOARD_URL,
    dashboardOrigins,
    signupMode: raw.SVC_SIGNUP_MODE ?? (development ? 'open' : 'closed'),
    signupAllowlist: raw.SVC_SIGNUP_ALLOWLIST ?? [],
    secret: raw.SVC_SECRET,
    profileSigningKeys: raw.SVC_PROFILE_SIGNING_KEYS,
    nodeAlertDelaySeconds: raw.SVC_NODE_ALERT_DELAY_SECONDS,
    signupOrigins: raw.SVC_SIGNUP_ORIGINS ?? dashboardOrigins,
    webauthnRpId: raw.SVC_WEBAUTHN_RP_ID ?? new URL(raw.SVC_DASHBOARD_URL).hostname,
    geoipDb: raw.SVC_GEOIP_DB,
    logLevel: raw.SVC_LOG_LEVEL,
    trustProxy: raw.SVC_TRUST_PROXY,
    rateLimitPerMinute: raw.SVC_RATE_LIMIT_PER_MINUTE,
    bodyLimitBytes: raw.SVC_BODY_LIMIT_BYTES,
    problemBase: (raw.SVC_PROBLEM_BASE ?? `${baseUrl}/problems`).replace(/\/+$/, ''),
    problemBaseDefaulted: raw.SVC_PROBLEM_BASE === undefined,
    secureCookies: !development,
    resolver: {
      domain: raw.SVC_RESOLVER_DOMAIN,
      ipv6Prefixes: raw.SVC_ANYCAST_V6_PREFIXES,
      ipv4Anycast: raw.SVC_ANYCAST_V4,
    },
    rulesLimit: raw.SVC_RULES_LIMIT,
    ecsOperatorCap: { v4: raw.SVC_ECS_CAP_V4, v6: raw.SVC_ECS_CAP_V6 },
    deletionCoolingOffDays: raw.SVC_DELETION_COOLING_OFF_DAYS,
    metricsToken: raw.SVC_METRICS_TOKEN,
    heapGrowthPercent: raw.SVC_HEAP_GROWTH_PERCENT,
    lists: {
      refreshHours: raw.SVC_LIST_REFRESH_HOURS,
      maxBytes: raw.SVC_LIST_MAX_BYTES,
      fetchTimeoutMs: raw.SVC_LIST_FETCH_TIMEOUT_SECONDS * 1000,
      mirrorUrl: raw.SVC_LIST_MIRROR_URL,
    },
    cloudQueryLimits: {
      maxRowsToRead: raw.SVC_QUERY_MAX_ROWS_TO_READ,
      maxMemoryBytes: raw.SVC_QUERY_MAX_MEMORY_BYTES,
      maxExecutionSeconds: raw.SVC_QUERY_TIMEOUT_SECONDS,
    },
  };
}
