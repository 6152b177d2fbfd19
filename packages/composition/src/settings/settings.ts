import { CLOUD_QUERY_LIMITS, postgresUrlProblem, type QueryLogReaderLimits } from '@svc/adapters';
import { NODE_ALERT_DELAY_DEFAULT_SECONDS } from '@svc/domain';
import { z } from 'zod';
import { settingDocs } from './setting-docs.js';

/** A comma-separated setting as its trimmed, non-empty entries. */
const commaList = z.string().transform((value) =>
  value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0),
);

/** A yes/no setting, spelled `true` or `false`. */
const flag = z.enum(['true', 'false']).transform((value) => value === 'true');

const originList = commaList.pipe(z.array(z.url().transform((url) => new URL(url).origin)));

const urlWithSchemes = (schemes: string[]) =>
  z
    .string()
    .refine(
      (value) => URL.canParse(value) && schemes.includes(new URL(value).protocol),
      `must be a URL with scheme ${schemes.map((scheme) => scheme.replace(':', '')).join(' or ')}`,
    );

/** Where the embedded engines keep their files when neither `--data-dir` nor SVC_DATA_DIR says (RUNNER.md). */
export const DEFAULT_DATA_DIR = './.svc-data';

/**
 * Every setting of RUNNER.md, as read from flags and the environment. Parsing happens once at start; a bad
 * value stops the start with a message naming the setting. Each is documented where it is declared
 * ({@link settingDocs}); the README's configuration table is generated from that (`npm run docs`).
 */
export const RawSettings = z.object({
  SVC_ENV: z.enum(['development', 'production']).default('production').register(settingDocs, {
    defaultText: '`development` under `npm start`, `npm run svc`',
    description:
      '`development`: cookie not Secure, no HSTS, signup `open` unless set, secret and signing key generated; else `production`',
  }),
  HOST: z.string().min(1).default('127.0.0.1').register(settingDocs, {
    flag: '--host',
    description: 'listen address',
  }),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080).register(settingDocs, {
    flag: '--port',
    description: 'listen port; `0` picks a free one (the printed line tells which)',
  }),
  SVC_DATA_DIR: z.string().min(1).default(DEFAULT_DATA_DIR).register(settingDocs, {
    flag: '--data-dir',
    description: 'files of the embedded engines, the mail outbox folder, generated secrets',
  }),
  DATABASE_URL: z
    .string()
    .superRefine((value, context) => {
      const problem = postgresUrlProblem(value);
      if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
    })
    .optional()
    .register(settingDocs, {
      defaultText: 'embedded PGlite',
      description:
        '`postgres://…`: that PostgreSQL server; `h1:5432,h2:5432` hosts with `?target_session_attrs=read-write` follow a promoted standby',
    }),
  CLICKHOUSE_URL: urlWithSchemes(['http:', 'https:']).optional().register(settingDocs, {
    defaultText: 'embedded chdb',
    description: '`http(s)://user:pass@host:8123/db`: use that ClickHouse server',
  }),
  NATS_URL: commaList
    .pipe(z.array(urlWithSchemes(['nats:', 'tls:'])).min(1, 'must name at least one server'))
    .transform((servers) => servers.join(','))
    .optional()
    .register(settingDocs, {
      defaultText: 'in-process bus',
      description:
        "`nats://user:pass@…`: publish profile documents and operator changes on NATS; comma-separated: one cluster's nodes",
    }),
  NATS_TLS_CA: z.string().min(1, 'must be a file path').optional().register(settingDocs, {
    defaultText: 'system CAs',
    description:
      'PEM file of the CA that signed the NATS servers’ certificates (deploy/nats/); set, the bus requires TLS',
  }),
  SMTP_URL: urlWithSchemes(['smtp:', 'smtps:']).optional().register(settingDocs, {
    defaultText: 'outbox folder',
    description:
      '`smtp(s)://…`: send mail over SMTP; unset writes `<data-dir>/mail/<timestamp>-<id>.eml` and logs one line',
  }),
  SVC_BASE_URL: z.url().optional().register(settingDocs, {
    defaultText: '`http://HOST:PORT`',
    description: '`{base_url}` of the spec (links in mail, DDNS update URLs, problem types)',
  }),
  SVC_DASHBOARD_URL: z.url().optional().register(settingDocs, {
    defaultText: 'the base URL, `localhost` on loopback',
    description:
      '`{dashboard_url}` of emailed links; unset, `svc serve` serves the dashboard at `/` on its own origin',
  }),
  SVC_DASHBOARD_ORIGINS: originList.optional().register(settingDocs, {
    defaultText: 'origin of the dashboard URL (on loopback: both names)',
    description: 'comma-separated dashboard origins (CORS, CSRF)',
  }),
  SVC_SIGNUP_MODE: z.enum(['open', 'invite', 'closed']).optional().register(settingDocs, {
    defaultText: '`open` in development, `closed` in production',
    description: '`open`, `invite` or `closed`',
  }),
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
    .optional()
    .register(settingDocs, {
      description:
        'comma-separated addresses (`a@example.com`) and whole domains (`example.com`) that may sign up in `invite` mode without a code',
    }),
  SVC_SECRET: z.string().min(32, 'must be at least 32 characters').optional().register(settingDocs, {
    defaultText: 'generated in development',
    description:
      'key material for cursors, token hashes and DDNS tokens; at least 32 characters; required in production',
  }),
  SVC_PROFILE_SIGNING_KEYS: z.string().min(1).optional().register(settingDocs, {
    defaultText: 'generated in development',
    description:
      'Ed25519 PKCS#8 keys (PEM or base64 DER), comma-separated, signing node profile documents; the first signs, the rest stay announced',
  }),
  SVC_NODE_ALERT_DELAY_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(86_400)
    .default(NODE_ALERT_DELAY_DEFAULT_SECONDS)
    .register(settingDocs, {
      description:
        "how long a node's link may stay down before its owners are emailed (preference `alerts.node_offline`; at most twice per node in 6 h)",
    }),
  SVC_SIGNUP_ORIGINS: originList.optional().register(settingDocs, {
    defaultText: 'the dashboard origins',
    description: 'exact origins allowed on the signup surfaces',
  }),
  SVC_WEBAUTHN_RP_ID: z.string().min(1).optional().register(settingDocs, {
    defaultText: 'host of the dashboard URL (`localhost` on loopback)',
    description: 'WebAuthn relying-party id of passkeys',
  }),
  SVC_GEOIP_DB: z.string().min(1).optional().register(settingDocs, {
    description: 'MaxMind-format country database for the `destinations` analytics',
  }),
  SVC_LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .register(settingDocs, {
      description: 'level of the structured JSON logs on stdout (pino)',
    }),
  SVC_TRUST_PROXY: z.string().min(1).optional().register(settingDocs, {
    defaultText: 'unset (no proxy trusted)',
    description:
      "express `trust proxy`: the load balancers' addresses or CIDRs, comma-separated; `true` or hop counts in development only",
  }),
  SVC_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(300).register(settingDocs, {
    description: 'requests a minute per client IP on unauthenticated routes (429 `rate_limited` beyond)',
  }),
  SVC_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(10_485_760)
    .default(1_048_576)
    .register(settingDocs, {
      description: 'largest JSON body (400 `body_too_large` beyond)',
    }),
  SVC_PROBLEM_BASE: z.url().optional().register(settingDocs, {
    defaultText: '`{base_url}/problems`',
    description:
      "`{problem_base}`: a problem's `type` is `{problem_base}/<code>`; svc serves those pages at its default, another base serves its own",
  }),
  SVC_RESOLVER_DOMAIN: z
    .string()
    .regex(
      /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
      'must be a lower-case domain name',
    )
    .default('dns.svc.example')
    .register(settingDocs, {
      description:
        'resolver domain of profile endpoints: DoH `https://<domain>/<id>`, DoT/DoQ `<id>.<domain>`',
    }),
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
    .default(['2001:db8:100::', '2001:db8:200::'])
    .register(settingDocs, {
      defaultText: '`2001:db8:100::/48,2001:db8:200::/48`',
      description:
        "anycast IPv6 /48s; each gives one resolver address per profile, the id's six bytes in its low 48 bits",
    }),
  SVC_ANYCAST_V4: commaList
    .pipe(z.array(z.ipv4('must list IPv4 addresses')))
    .default(['192.0.2.53', '198.51.100.53'])
    .register(settingDocs, {
      defaultText: '`192.0.2.53,198.51.100.53`',
      description: 'anycast IPv4 resolvers (Do53 clients are identified by a linked IP)',
    }),
  SVC_RULES_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(1000).register(settingDocs, {
    description:
      "the plan's limit of deny, allow and rewrite rules per profile (422 `too_many_rules` beyond)",
  }),
  SVC_LINKED_IPS_PER_PROFILE: z.coerce.number().int().min(1).max(100_000).default(20).register(settingDocs, {
    description: 'linked IPs (DDNS slots included) one profile may have (422 `too_many_linked_ips` beyond)',
  }),
  SVC_LINKED_IPS_PER_ACCOUNT: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(100)
    .register(settingDocs, {
      description: 'linked IPs one account may have over all its profiles (422 `too_many_linked_ips` beyond)',
    }),
  SVC_ECS_CAP_V4: z.coerce.number().int().min(0).max(32).default(32).register(settingDocs, {
    description:
      "the operator's cap on the IPv4 ECS source prefix resolvers forward (0–32); bounds every profile's ECS mode",
  }),
  SVC_ECS_CAP_V6: z.coerce.number().int().min(0).max(128).default(128).register(settingDocs, {
    description: 'the same cap for IPv6 (0–128)',
  }),
  SVC_DELETION_COOLING_OFF_DAYS: z.coerce.number().int().min(1).max(365).default(14).register(settingDocs, {
    description:
      'days between an account deletion request and its erasure (1–365); the owner can undelete until then',
  }),
  SVC_SHUTDOWN_DELAY_SECONDS: z.coerce.number().int().min(0).max(60).default(0).register(settingDocs, {
    description:
      "seconds a stopping server serves on, unready, before its drain (longer than the balancer's `/readyz` interval)",
  }),
  SVC_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional().register(settingDocs, {
    defaultText: 'unset (`/metrics` open; production refuses)',
    description:
      'at least 16 characters: `GET /metrics` needs `Authorization: Bearer <token>`; required in production unless metrics are off',
  }),
  SVC_METRICS_ENABLED: flag.default(true).register(settingDocs, {
    defaultText: '`true`',
    description:
      '`false` turns `GET /metrics` off (404), so a production server no one scrapes needs no token',
  }),
  SVC_ALLOW_EMBEDDED: flag.default(false).register(settingDocs, {
    defaultText: '`false`',
    description:
      '`true` lets production run on embedded PGlite or chdb (no `DATABASE_URL` / `CLICKHOUSE_URL`); otherwise `svc serve` refuses them',
  }),
  SVC_NODE_LINK_BYTES_PER_SECOND: z.coerce
    .number()
    .int()
    .min(2_097_152, 'must be at least 2097152 (twice the largest link message)')
    .max(1_073_741_824)
    .default(8_388_608)
    .register(settingDocs, {
      defaultText: '`8388608` (8 MiB)',
      description:
        'bytes a node link may send a second (a second of it at once; at least 2 MiB); over it the link is closed with 4005',
    }),
  SVC_NODE_LINK_MESSAGES_PER_SECOND: z.coerce
    .number()
    .int()
    .min(10)
    .max(100_000)
    .default(100)
    .register(settingDocs, {
      description:
        'messages a node link may send a second (a second of them at once); over it the link is closed with 4005',
    }),
  SVC_QUERY_MAX_ROWS_TO_READ: z.coerce
    .number()
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .default(CLOUD_QUERY_LIMITS.maxRowsToRead)
    .register(settingDocs, {
      description:
        'rows one cloud log or analytics query may read (ClickHouse `max_rows_to_read`); beyond is 422 `query_too_expensive`',
    }),
  SVC_QUERY_MAX_MEMORY_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .default(CLOUD_QUERY_LIMITS.maxMemoryBytes)
    .register(settingDocs, {
      description: 'memory one cloud query may use (`max_memory_usage`); beyond is 422 `query_too_expensive`',
    }),
  SVC_QUERY_TIMEOUT_SECONDS: z.coerce
    .number()
    .positive()
    .max(3_600)
    .default(CLOUD_QUERY_LIMITS.maxExecutionSeconds)
    .register(settingDocs, {
      description:
        'run time of one cloud query (`max_execution_time`, fractions allowed); past it the query is cancelled: 504 `query_timeout`',
    }),
  SVC_HEAP_GROWTH_PERCENT: z.coerce.number().int().min(0).max(1_000).default(50).register(settingDocs, {
    description:
      "how far past its live size the JavaScript heap grows before a full collection (V8's `--heap-growing-percent`); `0` leaves V8's policy",
  }),
  SVC_LIST_REFRESH_HOURS: z.coerce.number().int().min(0).max(720).default(24).register(settingDocs, {
    description:
      'hours between blocklist source refreshes (`0`: none; `svc lists refresh` still works); a failing source keeps its last good version',
  }),
  SVC_LIST_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(2_147_483_647)
    .default(67_108_864)
    .register(settingDocs, {
      description: 'largest blocklist source read, after decompression; a larger one fails its fetch',
    }),
  SVC_LIST_FETCH_TIMEOUT_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3_600)
    .default(120)
    .register(settingDocs, {
      description:
        'time-out of one fetch of a blocklist source, body included (failures are retried with backoff)',
    }),
  SVC_LIST_MIRROR_URL: urlWithSchemes(['http:', 'https:']).optional().register(settingDocs, {
    description:
      'fetch every blocklist source from `<url>/<source id>` instead of upstream (a mirror for servers without internet access)',
  }),
  SVC_OUTBOUND_ALLOW_PRIVATE: flag.default(false).register(settingDocs, {
    defaultText: '`false`',
    description:
      '`true`: blocklist fetches may be redirected to plain http and private or loopback addresses (internal list hosts, tests)',
  }),
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
  /** NATS_TLS_CA: the CA file the NATS servers' certificates are checked against (TLS required when set). */
  natsTlsCa: string | undefined;
  smtpUrl: string | undefined;
  baseUrl: string;
  /** True when SVC_BASE_URL was not set: the server then names its bound address. */
  baseUrlDefaulted: boolean;
  /** `{dashboard_url}` of emailed links: SVC_DASHBOARD_URL, or the base URL (`localhost` on loopback) when svc serves the dashboard. */
  dashboardUrl: string;
  dashboardOrigins: string[];
  /**
   * True when SVC_DASHBOARD_URL is unset: `svc serve` then serves the built dashboard at `/` on its own origin,
   * and the dashboard settings follow the base URL (the bound port's, when PORT is 0).
   */
  servesDashboard: boolean;
  /** The dashboard settings as configured, from which the derived ones are worked out again once bound. */
  dashboardConfigured: DashboardConfiguration;
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
  /** Links (DDNS slots included) per profile and per account over its profiles (422 too_many_linked_ips). */
  linkedIpCaps: { perProfile: number; perAccount: number };
  /** The operator's cap on the ECS source prefixes the resolvers forward (spec 2.3 settings.ecs). */
  ecsOperatorCap: { v4: number; v6: number };
  /** Days between an account deletion request and its erasure (the owner can undelete until then). */
  deletionCoolingOffDays: number;
  /** Bearer token that GET /metrics demands; unset leaves /metrics open (development only, see below). */
  metricsToken: string | undefined;
  /** Seconds a stopping server keeps serving, unready, before it drains (SVC_SHUTDOWN_DELAY_SECONDS). */
  shutdownDelaySeconds: number;
  /** False turns GET /metrics off; in production a server with metrics on needs `metricsToken` to start. */
  metricsEnabled: boolean;
  /** True lets a production server run on an embedded engine (see `embeddedEnginesRefusal`). */
  allowEmbedded: boolean;
  /** What one node link may send a second before it is closed (docs/node-link-protocol.md, 4005). */
  nodeLinkBudget: { bytesPerSecond: number; messagesPerSecond: number };
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
   * Outbound requests the server makes on its own (blocklist sources): `allowPrivate` lets them reach plain
   * http and loopback, private or reserved addresses; otherwise only https to public addresses.
   */
  outbound: { allowPrivate: boolean };
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

/** The settings of the dashboard's address as given (unset ones are derived). */
export interface DashboardConfiguration {
  url: string | undefined;
  origins: string[] | undefined;
  signupOrigins: string[] | undefined;
  webauthnRpId: string | undefined;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A loopback URL with `localhost` as its host (the path kept, no trailing slash added). */
function onLocalhost(loopbackUrl: string): string {
  const url = new URL(loopbackUrl);
  url.hostname = 'localhost';
  return url.pathname === '/' && !loopbackUrl.endsWith('/') ? url.origin : url.href;
}

/**
 * The dashboard's address, origins and WebAuthn relying party: as configured, else derived from the base
 * URL. A dashboard served by svc itself on loopback answers at both `127.0.0.1` and `localhost` (either may be
 * typed), and its relying party is `localhost`, since WebAuthn refuses an IP address as one; so its address,
 * the one emailed links lead to, is the `localhost` one, where passkeys work too.
 */
export function dashboardSettings(
  configured: DashboardConfiguration,
  baseUrl: string,
): Pick<
  Settings,
  'dashboardUrl' | 'dashboardOrigins' | 'signupOrigins' | 'webauthnRpId' | 'servesDashboard'
> {
  const dashboardUrl = configured.url ?? baseUrl;
  const url = new URL(dashboardUrl);
  const loopbackAliases =
    configured.url === undefined && LOOPBACK_HOSTS.has(url.hostname)
      ? ['127.0.0.1', 'localhost'].map(
          (host) => `${url.protocol}//${host}${url.port === '' ? '' : `:${url.port}`}`,
        )
      : [];
  const dashboardOrigins = configured.origins ?? [...new Set([url.origin, ...loopbackAliases])];
  return {
    dashboardUrl: loopbackAliases.length > 0 ? onLocalhost(dashboardUrl) : dashboardUrl,
    dashboardOrigins,
    signupOrigins: configured.signupOrigins ?? dashboardOrigins,
    webauthnRpId:
      configured.webauthnRpId ??
      (loopbackAliases.length > 0 ? 'localhost' : url.hostname.replace(/^\[|\]$/g, '')),
    servesDashboard: configured.url === undefined,
  };
}

/**
 * The settings once the server is bound: a PORT of 0 is only known then, so the default base URL, problem
 * base and dashboard settings that derive from it name the real port.
 */
export function settingsForBoundUrl(settings: Settings, url: string): Settings {
  if (!settings.baseUrlDefaulted) return settings;
  return {
    ...settings,
    baseUrl: url,
    problemBase: settings.problemBaseDefaulted ? `${url}/problems` : settings.problemBase,
    ...dashboardSettings(settings.dashboardConfigured, url),
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
  const baseUrl = (
    raw.SVC_BASE_URL ?? `http://${raw.HOST.includes(':') ? `[${raw.HOST}]` : raw.HOST}:${raw.PORT}`
  ).replace(/\/+$/, '');
  const dashboardConfigured: DashboardConfiguration = {
    url: raw.SVC_DASHBOARD_URL,
    origins: raw.SVC_DASHBOARD_ORIGINS,
    signupOrigins: raw.SVC_SIGNUP_ORIGINS,
    webauthnRpId: raw.SVC_WEBAUTHN_RP_ID,
  };
  return {
    env: raw.SVC_ENV,
    host: raw.HOST,
    port: raw.PORT,
    dataDir: raw.SVC_DATA_DIR,
    databaseUrl: raw.DATABASE_URL,
    clickhouseUrl: raw.CLICKHOUSE_URL,
    natsUrl: raw.NATS_URL,
    natsTlsCa: raw.NATS_TLS_CA,
    smtpUrl: raw.SMTP_URL,
    baseUrl,
    baseUrlDefaulted: raw.SVC_BASE_URL === undefined,
    dashboardConfigured,
    ...dashboardSettings(dashboardConfigured, baseUrl),
    signupMode: raw.SVC_SIGNUP_MODE ?? (development ? 'open' : 'closed'),
    signupAllowlist: raw.SVC_SIGNUP_ALLOWLIST ?? [],
    secret: raw.SVC_SECRET,
    profileSigningKeys: raw.SVC_PROFILE_SIGNING_KEYS,
    nodeAlertDelaySeconds: raw.SVC_NODE_ALERT_DELAY_SECONDS,
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
    linkedIpCaps: { perProfile: raw.SVC_LINKED_IPS_PER_PROFILE, perAccount: raw.SVC_LINKED_IPS_PER_ACCOUNT },
    ecsOperatorCap: { v4: raw.SVC_ECS_CAP_V4, v6: raw.SVC_ECS_CAP_V6 },
    deletionCoolingOffDays: raw.SVC_DELETION_COOLING_OFF_DAYS,
    metricsToken: raw.SVC_METRICS_TOKEN,
    shutdownDelaySeconds: raw.SVC_SHUTDOWN_DELAY_SECONDS,
    metricsEnabled: raw.SVC_METRICS_ENABLED,
    allowEmbedded: raw.SVC_ALLOW_EMBEDDED,
    nodeLinkBudget: {
      bytesPerSecond: raw.SVC_NODE_LINK_BYTES_PER_SECOND,
      messagesPerSecond: raw.SVC_NODE_LINK_MESSAGES_PER_SECOND,
    },
    heapGrowthPercent: raw.SVC_HEAP_GROWTH_PERCENT,
    lists: {
      refreshHours: raw.SVC_LIST_REFRESH_HOURS,
      maxBytes: raw.SVC_LIST_MAX_BYTES,
      fetchTimeoutMs: raw.SVC_LIST_FETCH_TIMEOUT_SECONDS * 1000,
      mirrorUrl: raw.SVC_LIST_MIRROR_URL,
    },
    outbound: { allowPrivate: raw.SVC_OUTBOUND_ALLOW_PRIVATE },
    cloudQueryLimits: {
      maxRowsToRead: raw.SVC_QUERY_MAX_ROWS_TO_READ,
      maxMemoryBytes: raw.SVC_QUERY_MAX_MEMORY_BYTES,
      maxExecutionSeconds: raw.SVC_QUERY_TIMEOUT_SECONDS,
    },
  };
}
