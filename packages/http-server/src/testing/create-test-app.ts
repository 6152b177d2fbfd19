import type { InProcessMessageBus, MemoryMailer } from '@svc/adapters';
import { parseSettings } from '@svc/composition';
import { type Clock, Mailer, MessageBus } from '@svc/domain';
import pino from 'pino';
import type { RouteContribution } from '../app/build-app.js';
import { type RunningServer, startServer } from '../server/start-server.js';

/** Options of {@link createTestApp}. */
export interface TestAppOptions {
  /** Settings as environment variables; SVC_ENV defaults to development, PORT to 0 (a free port). */
  env?: Record<string, string>;
  /** Extra route tables, for example an embedding application's own routes. */
  routes?: RouteContribution[];
  /** Replaces the system clock, to move time in tests. */
  clock?: Clock;
}

/** The whole API on loopback with in-memory adapters, and handles on what it sends. */
export interface TestApp extends RunningServer {
  /** Every email the API sent. */
  mailer: MemoryMailer;
  /** The bus the API publishes to; subscribe to observe profile documents and operator changes. */
  bus: InProcessMessageBus;
}

/**
 * Starts the whole API for a user's own tests, with no engine to install: in-memory stores, bus and mailer,
 * listening on 127.0.0.1 on a free port. Close it after the tests.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const settings = parseSettings({
    SVC_ENV: 'development',
    PORT: '0',
    SVC_SECRET: 'test-secret-that-is-long-enough-for-hkdf-0123456789',
    SVC_DATA_DIR: '/nonexistent-svc-test-data',
    // Tests never reach the internet: lists are refreshed only when a test asks.
    SVC_LIST_REFRESH_HOURS: '0',
    // The dashboard origin the suites sign in from (a separately hosted dashboard, as RUNNER.md describes).
    SVC_DASHBOARD_URL: 'http://localhost:3000',
    ...options.env,
  });
  const logger = pino({
    level: settings.observability.logLevel === 'info' ? 'warn' : settings.observability.logLevel,
  });
  const server = await startServer({
    settings,
    logger,
    storage: 'memory',
    contributions: options.routes ?? [],
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  return {
    ...server,
    mailer: server.container.get<MemoryMailer>(Mailer),
    bus: server.container.get<InProcessMessageBus>(MessageBus),
  };
}
