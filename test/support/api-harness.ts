import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, parseSettings, type RunningServer, startServer } from '@svc/http-server';
import { ManualClock } from '@svc/testing/clock';
import { createScratchDatabase } from '@svc/testing/postgres';
import type { Container } from 'inversify';
import pino from 'pino';
import { seedColumnarStore } from './columnar-template.js';

/** A running API for end-to-end tests, with a clock to move and the mail it sent. */
export interface ApiHarness {
  url: string;
  clock: ManualClock;
  container: Container;
  /** The warnings and errors the server logged, as pino wrote them (engine-backed servers only). */
  logLines?: Record<string, unknown>[];
  /** Bodies (text part) of every email sent to `address`, oldest first. */
  mailTo(address: string): Promise<string[]>;
  close(): Promise<void>;
}

/** Where the API keeps its data: memory adapters, embedded PGlite, or the PostgreSQL server. */
export type HarnessStorage = 'memory' | 'pglite' | 'postgres';

const SECRET = 'e2e-secret-that-is-long-enough-for-hkdf-0123456789';

/** Undoes quoted-printable soft breaks and escapes, enough to read links out of an .eml file. */
function decodeQuotedPrintable(text: string): string {
  // Escaped octets are UTF-8: runs of them decode together, so a multi-byte character reads as itself.
  return text
    .replace(/=\r?\n/g, '')
    .replace(/(?:=[0-9A-F]{2})+/g, (run) => Buffer.from(run.replaceAll('=', ''), 'hex').toString('utf8'));
}

/** Emails the embedded mailer wrote for `address` into `<dataDir>/mail`, oldest first. */
export function outboxMailTo(dataDir: string, address: string): string[] {
  const folder = join(dataDir, 'mail');
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .map((name) => decodeQuotedPrintable(readFileSync(join(folder, name), 'utf8')))
    .filter((message) => new RegExp(`^To: ${address.replace(/[.+]/g, '\\$&')}\\r?$`, 'mi').test(message));
}

/** What a production server demands beyond a secret: a metrics token, and consent to the embedded engines. */
function productionConsent(storage: HarnessStorage, env: Record<string, string>): Record<string, string> {
  if (env.SVC_ENV !== 'production') return {};
  return {
    SVC_METRICS_TOKEN: 'e2e-metrics-token-0123456789',
    ...(storage === 'memory' ? {} : { SVC_ALLOW_EMBEDDED: 'true' }),
  };
}

/**
 * Starts the API on `storage` with `env` settings (development unless set) and a manual clock. A production
 * server is given a metrics token and allowed its embedded engines unless `env` says otherwise.
 */
export async function startApi(
  storage: HarnessStorage,
  env: Record<string, string> = {},
): Promise<ApiHarness> {
  const clock = new ManualClock();
  if (storage === 'memory') {
    const app = await createTestApp({ env: { ...productionConsent(storage, env), ...env }, clock });
    return {
      url: app.url,
      clock,
      container: app.container,
      logLines: [],
      mailTo: async (address) => app.mailer.to(address).map((message) => message.text),
      close: () => app.close(),
    };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-e2e-'));
  await seedColumnarStore(dataDir);
  const scratch = storage === 'postgres' ? await createScratchDatabase() : undefined;
  const settings = parseSettings({
    SVC_ENV: 'development',
    PORT: '0',
    SVC_SECRET: SECRET,
    SVC_DATA_DIR: dataDir,
    // Tests never reach the internet: lists are refreshed only when a test asks.
    SVC_LIST_REFRESH_HOURS: '0',
    // The dashboard origin the suites sign in from (a separately hosted dashboard, as RUNNER.md describes).
    SVC_DASHBOARD_URL: 'http://localhost:3000',
    ...(scratch === undefined ? {} : { DATABASE_URL: scratch.url }),
    ...productionConsent(storage, env),
    ...env,
  });
  const logLines: Record<string, unknown>[] = [];
  const server: RunningServer = await startServer({
    settings,
    // Written as before, and kept so that tests can read what the server warned about.
    logger: pino(
      { level: 'warn' },
      {
        write: (line: string) => {
          process.stdout.write(line);
          logLines.push(JSON.parse(line) as Record<string, unknown>);
        },
      },
    ),
    storage: 'engines',
    clock,
  });
  return {
    url: server.url,
    clock,
    container: server.container,
    logLines,
    mailTo: async (address) => outboxMailTo(dataDir, address),
    close: async () => {
      await server.close();
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls until `read` yields a value `accept`s, for work done in the background (mail dispatch). */
export async function eventually<T>(
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  ms = 5_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
