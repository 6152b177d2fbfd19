import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { ReadinessProbe } from '@svc/adapters';
import {
  BusTransport,
  type ControlCommand,
  holdsEmbeddedEngines,
  type Lifecycle,
  LifecycleToken,
  migrateStores,
  QueueDepthSource,
  type Settings,
  type StorageKind,
  settingsForBoundUrl,
  startControlSocket,
} from '@svc/composition';
import type { Clock } from '@svc/domain';
import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { type BuiltApp, buildApp, type RouteContribution, type UpgradeHandler } from '../app/build-app.js';
import { createContainer } from '../composition/container.js';
import { ServerJob } from '../composition/server-job.js';
import { operationalEndpoints } from '../observability/operational-endpoints.js';
import { registerQueueMetrics } from '../observability/queue-metrics.js';
import { Readiness, type ReadinessSources } from '../observability/readiness.js';
import { requestObserver } from '../observability/request-observer.js';
import { ServerMetrics } from '../observability/server-metrics.js';
import { productionRefusals } from '../settings/production-requirements.js';
import { answerClientError } from './client-error.js';
import { expressPrototypes } from './express-prototypes.js';

/** How long shutdown waits for requests in flight before cutting connections (RUNNER.md). */
const SHUTDOWN_GRACE_MS = 10_000;

/** A running API server. */
export interface RunningServer {
  /** `http://HOST:PORT` as bound (a port of 0 is replaced by the one picked). */
  url: string;
  /** The settings in force, with the base URL of the bound port when none was configured. */
  settings: Settings;
  container: Container;
  built: BuiltApp;
  /** What GET /readyz answers from; not ready from the moment `close` is called. */
  readiness: Readiness;
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
  /**
   * The built dashboard's folder (index.html and assets/), served at `/` when the settings say svc serves the
   * dashboard (SVC_DASHBOARD_URL unset).
   */
  dashboardDir?: string;
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

/**
 * What readiness probes and the metrics read the queues from: the probes the adapter families bound (a store not
 * opened in this process yet is reported unopened, never opened) and the PostgreSQL pool's queues.
 */
async function observedStores(
  container: Container,
  metrics: ServerMetrics,
  logger: Logger,
): Promise<ReadinessSources> {
  const sources: ReadinessSources = { bus: await container.getAsync<BusTransport>(BusTransport) };
  // Bound by the family that keeps durable queues (PostgreSQL); memory keeps none to report.
  const queues = await container.getAsync<QueueDepthSource>(QueueDepthSource, { optional: true });
  if (queues !== undefined) {
    registerQueueMetrics(
      metrics,
      () => queues.read(),
      (error) => logger.warn({ err: error }, 'queue depths unavailable for metrics'),
    );
  }
  const probes = await container.getAllAsync<ReadinessProbe>(ReadinessProbe);
  for (const probe of probes) {
    if (probe.dependency === 'postgres') {
      sources.postgres = () => probe.ping().then(() => undefined);
    } else {
      sources.columnar = { isOpen: () => probe.isOpen(), ping: () => probe.ping() };
    }
  }
  return sources;
}

/** The API's HTTP server, answering 503 (except liveness, readiness, metrics) until the application is built. */
function createApiServer(problemBaseOf: () => string) {
  let operational: ((req: IncomingMessage, res: ServerResponse) => boolean) | undefined;
  let handler = (req: IncomingMessage, res: ServerResponse) => {
    if (operational?.(req, res) === true) return;
    res.writeHead(503, { 'Retry-After': '1' }).end();
  };
  const prototypes = expressPrototypes();
  const server = createServer(
    {
      keepAliveTimeout: 5_000,
      IncomingMessage: prototypes.IncomingMessage,
      ServerResponse: prototypes.ServerResponse,
    },
    (req, res) => handler(req, res),
  );
  server.on('clientError', (error: Error, socket: Duplex) =>
    answerClientError(error, socket, problemBaseOf()),
  );
  let upgrade: UpgradeHandler = (_req, socket) => {
    socket.end('HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nConnection: close\r\n\r\n');
  };
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => upgrade(req, socket, head));
  return {
    server,
    /** Liveness, readiness and metrics: answered from the moment the port is bound. */
    answerOperational(endpoints: (req: IncomingMessage, res: ServerResponse) => boolean): void {
      operational = endpoints;
    },
    /** The application is built: requests and upgrades go to it from now on. */
    serve(built: BuiltApp, metrics: ServerMetrics, logger: Logger): void {
      const app = built.app;
      prototypes.adopt(app);
      upgrade = built.upgrade;
      const observe = requestObserver(metrics, logger);
      handler = (req, res) => {
        if (operational?.(req, res) === true) return;
        observe(req, res, () => app(req, res));
      };
    },
  };
}

/**
 * Takes the data dir (control socket) when this process holds the embedded engines, migrates the stores, builds
 * the application and starts the schedulers.
 */
async function openApplication(
  container: Container,
  settings: Settings,
  storage: StorageKind,
  options: StartServerOptions,
): Promise<BuiltApp> {
  const lifecycle = container.get<Lifecycle>(LifecycleToken);
  if (holdsEmbeddedEngines(settings, storage)) {
    const commands = new Map<string, ControlCommand>([['migrate', () => migrateStores(container)]]);
    for (const [name, command] of options.controlCommands?.(container) ?? []) commands.set(name, command);
    // Taken before the engines open: it is also the lock that keeps a second server off the same files.
    const control = await startControlSocket(settings.storage.dataDir, commands);
    lifecycle.own('control socket', control, (owned) => owned.close());
  }
  const applied = await migrateStores(container, {
    onColumnarUnavailable:
      settings.storage.clickhouseUrl === undefined
        ? undefined
        : (error) =>
            options.logger.warn(
              { err: error },
              'ClickHouse is unavailable: serving without it; logs and analytics answer 503 until it is back',
            ),
  });
  if (applied.postgres.length + applied.columnar.length > 0)
    options.logger.info({ applied }, 'migrations applied');
  const built = await buildApp(
    container,
    options.contributions,
    settings.dashboard.servedBySvc && options.dashboardDir !== undefined
      ? { dashboardDir: options.dashboardDir }
      : {},
  );
  // The schedulers start once there is an application to serve, and stop before the stores close.
  for (const job of await container.getAllAsync<ServerJob>(ServerJob)) await lifecycle.start(job.name, job);
  return built;
}

/**
 * Stops the server (once, however often called): readiness says shutting down, requests in flight finish (at
 * most {@link SHUTDOWN_GRACE_MS}), links close, then the stores.
 */
function closerOf(
  server: Server,
  built: BuiltApp,
  settings: Settings,
  lifecycle: Lifecycle,
  readiness: Readiness,
  logger: Logger,
): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= (async () => {
      readiness.shuttingDown();
      // Behind a load balancer, requests keep coming until its next /readyz check: serve them meanwhile, so
      // that closing kept-alive connections races no request the balancer could not send elsewhere.
      if (settings.http.shutdownDelaySeconds > 0)
        await new Promise((resolve) => setTimeout(resolve, settings.http.shutdownDelaySeconds * 1000));
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Upgraded sockets count as connections of the server: close the links, or shutdown waits for them.
      await built.closeLinks();
      const grace = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      await stopped;
      clearTimeout(grace);
      for (const failure of await lifecycle.closeAll()) {
        logger.error({ err: failure.error, resource: failure.name }, 'failed to close');
      }
    })();
    return closing;
  };
}

/**
 * Refuses what production must not run with (a {@link SettingsError}, before anything is opened), takes the
 * data dir (control socket), binds the port, opens and migrates the stores, builds the application,
 * then starts answering; the caller prints the `listening on` line. Liveness, readiness and metrics answer
 * from the moment the port is bound (readiness says not ready until the application is built).
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const storage = options.storage ?? 'engines';
  const refusal = productionRefusals(options.settings, {
    postgres: storage === 'engines' && options.settings.storage.databaseUrl === undefined,
    columnar: storage === 'engines' && options.settings.storage.clickhouseUrl === undefined,
  });
  if (refusal !== undefined) throw refusal;
  const readiness = new Readiness();
  let problemBase = options.settings.http.problemBase;
  const api = createApiServer(() => problemBase);
  const server = api.server;
  const address = await listen(server, options.settings.http.host, options.settings.http.port);
  const url = urlOf(address);
  const settings = settingsForBoundUrl(options.settings, url);
  problemBase = settings.http.problemBase;
  const container = createContainer({
    settings,
    logger: options.logger,
    storage,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  const metrics = container.get<ServerMetrics>(ServerMetrics);
  api.answerOperational(
    operationalEndpoints({
      readiness,
      metrics,
      metricsToken: settings.observability.metricsToken,
      metricsEnabled: settings.observability.metricsEnabled,
      problemBase: () => settings.http.problemBase,
    }),
  );
  const lifecycle = container.get<Lifecycle>(LifecycleToken);
  let built: BuiltApp;
  try {
    built = await openApplication(container, settings, storage, options);
    readiness.serving(await observedStores(container, metrics, options.logger));
  } catch (error) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await lifecycle.closeAll();
    throw error;
  }
  api.serve(built, metrics, options.logger);
  const close = closerOf(server, built, settings, lifecycle, readiness, options.logger);
  return { url, settings, container, built, readiness, close };
}
