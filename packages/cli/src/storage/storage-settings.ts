import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Settings } from '@svc/composition';
import { usageError } from '../output.js';
import { environmentValue, type StorageFlags, settingsFrom } from '../settings-from-options.js';

/** The settings of a storage command and the words that tell the user which stores it opened. */
export interface StorageSettings {
  settings: Settings;
  /** `data dir /abs/.svc-data (development: its generated secret)`, or the servers it talks to. */
  opened: string;
}

/** What a storage command may do with a data dir that holds nothing yet. */
export type NewDataDir = 'refuse' | 'create';

/** A server address without its credentials, as it may be printed. */
function addressOf(url: string): string {
  if (!URL.canParse(url)) {
    // A PostgreSQL URL naming several hosts (libpq's form), which URL does not parse.
    const [, hosts = '', path = ''] = /^[a-z]+:\/\/(?:[^@/]*@)?([^/?#]*)([^?#]*)/.exec(url) ?? [];
    return `${hosts}${path === '/' ? '' : path}`;
  }
  const parsed = new URL(url);
  return `${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
}

/**
 * Settings for a storage command (migrate, invites, accounts set-operator, simulate). A data dir carries its
 * own mode: the development secret a development server generated into it (`<data-dir>/secret`) makes it a
 * development data dir, so the commands open it without SVC_ENV or SVC_SECRET (an explicit setting still wins).
 * With the embedded PostgreSQL, a data dir that holds no database is refused unless `newDataDir` is `create`
 * (svc migrate): a mistyped --data-dir must not quietly start an empty one.
 */
export async function storageSettingsFrom(
  flags: StorageFlags,
  newDataDir: NewDataDir,
  env: NodeJS.ProcessEnv = process.env,
): Promise<StorageSettings> {
  const { DEFAULT_DATA_DIR, SettingsError } = await import('@svc/composition');
  const dataDir = resolve(flags.dataDir ?? environmentValue(env, 'SVC_DATA_DIR') ?? DEFAULT_DATA_DIR);
  const generatedSecret = existsSync(join(dataDir, 'secret'));
  const explicitMode =
    environmentValue(env, 'SVC_ENV') !== undefined || environmentValue(env, 'SVC_SECRET') !== undefined;
  const ownMode = !explicitMode && generatedSecret;
  const embeddedPostgres = environmentValue(env, 'DATABASE_URL') === undefined;
  if (embeddedPostgres && newDataDir === 'refuse' && !existsSync(join(dataDir, 'pg'))) {
    usageError(
      `no data dir at ${dataDir}: no server has run there. Start one first (npm start, or svc serve --data-dir DIR), or point --data-dir / SVC_DATA_DIR at the data dir your server uses`,
    );
  }
  let settings: Settings;
  try {
    settings = await settingsFrom({ ...flags, dataDir }, ownMode ? { ...env, SVC_ENV: 'development' } : env);
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    const secretMissing = error.issues.some((issue) => issue.setting === 'SVC_SECRET');
    usageError(
      secretMissing && !generatedSecret
        ? `${error.message} (${dataDir} holds no generated development secret: set SVC_SECRET, or SVC_ENV=development for a development data dir)`
        : error.message,
    );
  }
  const usesDataDir =
    embeddedPostgres || settings.storage.clickhouseUrl === undefined || settings.keys.secret === undefined;
  const stores = [
    ...(usesDataDir ? [`data dir ${dataDir}`] : []),
    ...(settings.storage.databaseUrl === undefined
      ? []
      : [`PostgreSQL ${addressOf(settings.storage.databaseUrl)}`]),
    ...(settings.storage.clickhouseUrl === undefined
      ? []
      : [`ClickHouse ${addressOf(settings.storage.clickhouseUrl)}`]),
  ];
  const mode = ownMode ? 'development: its generated secret' : settings.env;
  return { settings, opened: `${stores.join(', ')} (${mode})` };
}
