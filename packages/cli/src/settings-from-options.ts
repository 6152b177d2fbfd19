import type { Settings } from '@svc/composition';

/** Flags shared by the storage commands and serve; each overrides its environment variable. */
export interface StorageFlags {
  host?: string;
  port?: string;
  dataDir?: string;
}

/**
 * The settings of the API-client commands (read in api/api-command.ts). They are the CLI's, not the server's:
 * exported for the operator commands, they must not stop `serve` or a storage command as unknown settings.
 */
const CLIENT_SETTINGS: readonly string[] = ['SVC_API_URL', 'SVC_TOKEN', 'SVC_CONFIG'];

/** An environment value; set but empty counts as unset, as the settings parser reads it. */
export function environmentValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/**
 * Settings from the environment with the command's flags applied on top (RUNNER.md). The server's modules load
 * here, on first use, so that `svc --help` and the API-client commands start without them.
 */
export async function settingsFrom(
  flags: StorageFlags,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Settings> {
  const { parseSettings } = await import('@svc/composition');
  const server = Object.fromEntries(Object.entries(env).filter(([name]) => !CLIENT_SETTINGS.includes(name)));
  return parseSettings({
    ...server,
    ...(flags.host === undefined ? {} : { HOST: flags.host }),
    ...(flags.port === undefined ? {} : { PORT: flags.port }),
    ...(flags.dataDir === undefined ? {} : { SVC_DATA_DIR: flags.dataDir }),
  });
}
