import { isIP } from 'node:net';
import { type Settings, SettingsError } from '@svc/composition';

/** Which engines a server would keep in its data dir instead of reaching a server. */
export interface EmbeddedEngines {
  postgres: boolean;
  columnar: boolean;
}

/** Ranges express's `trust proxy` knows by name (proxy-addr): loopback, link-local and private addresses. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** True for an IPv4 or IPv6 address, with an optional prefix length (`10.0.0.0/8`, `fd00::/8`). */
function isAddressOrCidr(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Why a production `SVC_TRUST_PROXY` is refused, if it is: `true` or a hop count trusts whatever sits before
 * the server to say who the client is, so that any client reaching the port directly (or through a proxy
 * that appends rather than replaces) chooses its own address, and with it its rate limits and audit trail.
 * Production names the proxies' addresses; development keeps the shortcuts.
 */
function trustProxyRefusal(setting: string | undefined): string | undefined {
  if (setting === undefined || setting === 'false') return undefined;
  const entries = setting.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !NAMED_RANGES.has(entry) && !isAddressOrCidr(entry));
  if (bad.length === 0) return undefined;
  const why =
    setting === 'true' || /^\d+$/.test(setting)
      ? `\`${setting}\` trusts any client to name its own address`
      : `${bad.map((entry) => `\`${entry}\``).join(', ')} is not an address or CIDR`;
  return `${why}: production takes the load balancers' addresses or CIDRs, comma-separated (for example 10.0.0.0/8,fd00::/8; or loopback, linklocal, uniquelocal)`;
}

/**
 * What a production server refuses to start with although every setting is well formed: an embedded engine
 * nobody chose for production (PGlite runs with fsync off, one host holds all data), metrics that anyone
 * reaching the port could read, and a proxy trust that lets clients choose their own address. Checked by the server, not by the settings parser, so that CLI storage
 * commands run with the server's environment minus these. Development keeps both open.
 */
export function productionRefusals(settings: Settings, embedded: EmbeddedEngines): SettingsError | undefined {
  if (settings.env !== 'production') return undefined;
  const issues: { setting: string; message: string }[] = [];
  const engines = [
    embedded.postgres ? 'PostgreSQL (PGlite, no DATABASE_URL)' : undefined,
    embedded.columnar ? 'ClickHouse (chdb, no CLICKHOUSE_URL)' : undefined,
  ].filter((engine) => engine !== undefined);
  if (engines.length > 0 && !settings.storage.allowEmbedded) {
    issues.push({
      setting: 'SVC_ALLOW_EMBEDDED',
      message: `production refuses the embedded ${engines.join(' and ')} in ${settings.storage.dataDir}: set DATABASE_URL and CLICKHOUSE_URL, or SVC_ALLOW_EMBEDDED=true to run on one host with the data in its data dir`,
    });
  }
  if (settings.observability.metricsEnabled && settings.observability.metricsToken === undefined) {
    issues.push({
      setting: 'SVC_METRICS_TOKEN',
      message:
        'is required in production while metrics are enabled: set it (at least 16 characters), or SVC_METRICS_ENABLED=false',
    });
  }
  const trustProxy = trustProxyRefusal(settings.http.trustProxy);
  if (trustProxy !== undefined) issues.push({ setting: 'SVC_TRUST_PROXY', message: trustProxy });
  return issues.length === 0 ? undefined : new SettingsError(issues);
}
