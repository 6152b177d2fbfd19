import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '@svc/domain';
import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { type BuiltApp, buildApp, type RouteContribution } from '../app/build-app.js';
import { createContainer, migrateStores, type StorageKind } from '../composition/container.js';
import type { Lifecycle } from '../composition/lifecycle.js';
import { LifecycleToken } from '../composition/tokens.js';
import type { Settings } from '../settings/settings.js';
import { type ControlCommand, startControlSocket } from './control-socket.js';

/** How long shutdown waits for requests in flight before cutting connections (RUNNER.md). */
export const SHUTDOWN_GRACE_MS = 10_000;

/** A running API server. */
export interface RunningServer {
  /** `http://HOST:PORT` as bound (a port of 0 is replaced by the one picked). */
  url: string;
  /** The settings in force, with the base URL of the bound port when none was configured. */
  settings: Settings;
  container: Container;
  built: BuiltApp;
  /** Stops taking new work, finishes what is in flight (at most 10 s), closes the stores. */
  close(): Promise<void>;
}

/** Options of {@link startServer}. */
export interface StartServerOptions {
  settings: Settings;
  logger: Logger;
  storage?: StorageKind;
  contributions?: RouteContribution[];
  /** Replaces the system clock (tests that move time: session renewal, link expiry). */
  clock?: Clock;
  /** Storage commands this server runs for CLI processes while it holds the embedded engines. */
  controlCommands?: (container: Container) => Map<string, ControlCommand>;
}

/** True when the server keeps an engine in the data dir, so CLI storage commands must go through it. */
export function holdsEmbeddedEngines(settings: Settings, storage: StorageKind): boolean {
  return (
    storage === 'engines' && (settings.databaseUrl === undefined || settings.clickhouseUrl === undefined)
  );
}

function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

function urlOf(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** A port of 0 is only known once bound: the default base URL (and problem base) then name the real port. */
function withBoundUrl(settings: Settings, url: string): Settings {
  if (!settings.baseUrlDefaulted) return settings;
  return {
    ...settings,
    baseUrl: url,
    problemBase: settings.problemBaseDefaulted ? `${url}/problems` : settings.problemBase,
  };
}

/**
 * Takes the data dir (control socket), binds the port, opens and migrates the stores, builds the application,
 * then starts answering; the caller prints the `listening on` line.
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const storage = options.storage ?? 'engines';
  let handler = (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(503, { 'Retry-After': '1' }).end();
  };
  const server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => handler(req, res));
  const address = await listen(server, options.settings.host, options.settings.port);
  const url = urlOf(address);
  const settings = withBoundUrl(options.settings, url);
  const container = createContainer({
    settings,
    logger: options.logger,
    storage,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  const lifecycle = container.get<Lifecycle>(LifecycleToken);
  let built: BuiltApp;
  try {
    if (holdsEmbeddedEngines(settings, storage)) {
      const commands = new Map<string, ControlCommand>([['migrate', () => migrateStores(container)]]);
      for (const [name, command] of options.controlCommands?.(container) ?? []) commands.set(name, command);
      // Taken before the engines open: it is also the lock that keeps a second server off the same files.
      const control = await startControlSocket(settings.dataDir, commands);
      lifecycle.own('control socket', control, (owned) => owned.close());
    }
    const applied = await migrateStores(container);
    if (applied.postgres.length + applied.columnar.length > 0)
      options.logger.info({ applied }, 'migrations applied');
    built = await buildApp(container, options.contributions);
  } catch (error) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await lifecycle.closeAll();
    throw error;
  }
  handler = built.app;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const grace = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      await stopped;
      clearTimeout(grace);
      for (const failure of await lifecycle.closeAll()) {
        options.logger.error({ err: failure.error, resource: failure.name }, 'failed to close');
      }
    })();
    return closing;
  };
  return { url, settings, container, built, close };
}
