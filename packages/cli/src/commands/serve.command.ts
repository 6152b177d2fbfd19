import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { Settings } from '@svc/composition';
import type { Command } from 'commander';
import { ExitCode } from '../output.js';
import { type StorageFlags, settingsFrom } from '../settings-from-options.js';
import { nextSteps } from './serve-next-steps.js';

/**
 * The built dashboard's folder (`@svc/dashboard`'s dist, written by `npm run build:dashboard`), or undefined
 * when the package is not installed beside the CLI.
 */
function dashboardDir(): string | undefined {
  try {
    return join(dirname(createRequire(import.meta.url).resolve('@svc/dashboard/package.json')), 'dist');
  } catch {
    return undefined;
  }
}

/** `svc serve`: the API server (RUNNER.md), and the dashboard at `/` unless SVC_DASHBOARD_URL names another. */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the API server (embedded engines unless DATABASE_URL / CLICKHOUSE_URL are set)')
    .option('--host <host>', 'listen address (HOST)')
    .option('--port <port>', 'listen port, 0 picks a free one (PORT)')
    .option('--data-dir <dir>', 'where the embedded engines keep their files (SVC_DATA_DIR)')
    .action(async (flags: StorageFlags) => {
      // Loaded here rather than at the top: `svc --help` and the API-client commands never need the server.
      const { SettingsError, startServer } = await import('@svc/http-server');
      let settings: Settings;
      try {
        settings = await settingsFrom(flags);
      } catch (error) {
        if (!(error instanceof SettingsError)) throw error;
        process.stderr.write(`svc serve: ${error.message}\n`);
        process.exitCode = ExitCode.usage;
        return;
      }
      // Read by V8 at each full collection, so it applies from here on: the heap of a busy server stays
      // within this much of what it holds live instead of growing to several times it.
      if (settings.http.heapGrowthPercent > 0)
        setFlagsFromString(`--heap-growing-percent=${settings.http.heapGrowthPercent}`);
      const { default: pino } = await import('pino');
      const { STORAGE_OPERATIONS } = await import('../storage/storage-operations.js');
      // Written asynchronously: one line per request at info must not block the event loop on stdout.
      // Flushed before exiting, so the lines of the last requests and of the shutdown are not lost.
      const logger = pino({ level: settings.observability.logLevel }, pino.destination({ sync: false }));
      const dashboard = settings.dashboard.servedBySvc ? dashboardDir() : undefined;
      let server: Awaited<ReturnType<typeof startServer>>;
      try {
        server = await startServer({
          settings,
          logger,
          ...(dashboard === undefined ? {} : { dashboardDir: dashboard }),
          controlCommands: (container) =>
            new Map(
              Object.entries(STORAGE_OPERATIONS).map(([name, operation]) => [
                name,
                (args: Record<string, unknown>) => operation(container, args),
              ]),
            ),
        });
      } catch (error) {
        // What production refuses (an embedded engine nobody allowed, metrics without a token) is a usage
        // error like a malformed setting: one line naming the setting, no stack.
        if (!(error instanceof SettingsError)) throw error;
        process.stderr.write(`svc serve: ${error.message}\n`);
        process.exitCode = ExitCode.usage;
        return;
      }
      process.stdout.write(`listening on ${server.url}\n`);
      if (server.settings.env === 'development') process.stdout.write(nextSteps(server.settings, flags));
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        logger.info({ signal }, 'shutting down');
        void server.close().then(() => logger.flush(() => process.exit(0)));
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
    });
}
