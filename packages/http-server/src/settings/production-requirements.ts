import { type Settings, SettingsError } from '@svc/composition';

/** Which engines a server would keep in its data dir instead of reaching a server. */
export interface EmbeddedEngines {
  postgres: boolean;
  columnar: boolean;
}

/**
 * What a production server refuses to start with although every setting is well formed: an embedded engine
 * nobody chose for production (PGlite runs with fsync off, one host holds all data), and metrics that anyone
 * reaching the port could read. Checked by the server, not by the settings parser, so that CLI storage
 * commands run with the server's environment minus these. Development keeps both open.
 */
export function productionRefusals(settings: Settings, embedded: EmbeddedEngines): SettingsError | undefined {
  if (settings.env !== 'production') return undefined;
  const issues: { setting: string; message: string }[] = [];
  const engines = [
    embedded.postgres ? 'PostgreSQL (PGlite, no DATABASE_URL)' : undefined,
    embedded.columnar ? 'ClickHouse (chdb, no CLICKHOUSE_URL)' : undefined,
  ].filter((engine) => engine !== undefined);
  if (engines.length > 0 && !settings.allowEmbedded) {
    issues.push({
      setting: 'SVC_ALLOW_EMBEDDED',
      message: `production refuses the embedded ${engines.join(' and ')} in ${settings.dataDir}: set DATABASE_URL and CLICKHOUSE_URL, or SVC_ALLOW_EMBEDDED=true to run on one host with the data in its data dir`,
    });
  }
  if (settings.metricsEnabled && settings.metricsToken === undefined) {
    issues.push({
      setting: 'SVC_METRICS_TOKEN',
      message:
        'is required in production while metrics are enabled: set it (at least 16 characters), or SVC_METRICS_ENABLED=false',
    });
  }
  return issues.length === 0 ? undefined : new SettingsError(issues);
}
