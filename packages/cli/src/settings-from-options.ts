import { parseSettings, type Settings } from '@svc/http-server';

/** Flags shared by the storage commands and serve; each overrides its environment variable. */
export interface StorageFlags {
  host?: string;
  port?: string;
  dataDir?: string;
}

/** Settings from the environment with the command's flags applied on top (RUNNER.md). */
export function settingsFrom(flags: StorageFlags, env: NodeJS.ProcessEnv = process.env): Settings {
  return parseSettings({
    ...env,
    ...(flags.host === undefined ? {} : { HOST: flags.host }),
    ...(flags.port === undefined ? {} : { PORT: flags.port }),
    ...(flags.dataDir === undefined ? {} : { SVC_DATA_DIR: flags.dataDir }),
  });
}
