import { createClient, type SvcClient } from '@svc/sdk';
import type { Page } from 'playwright-core';
import { runSvc } from './cli-process.js';
import { type DashboardServer, PASSWORD } from './dashboard-browser.js';

/**
 * An SDK client signed in as `email` on the dashboard's server, sending the dashboard's Origin: the test's own
 * hands, to arrange data and to check what the pages stored.
 */
export async function signedInClient(server: DashboardServer, email: string): Promise<SvcClient> {
  const client = createClient({ baseUrl: server.url, origin: server.url, maxRetries: 0 });
  await client.auth.login({ email, password: PASSWORD });
  return client;
}

/** What `svc simulate` reported. */
export interface SimulationSummary {
  queries: number;
  rows_written: number;
}

/**
 * Plays the edge resolvers for `profileId` with `svc simulate` on the server's data dir (handed to the running
 * server, which holds the embedded engines), as RUNNER.md describes.
 */
export async function simulateTraffic(
  server: DashboardServer,
  profileId: string,
  options: { queries: number; days?: number; devices?: number; seed?: number },
): Promise<SimulationSummary> {
  const result = await runSvc(
    [
      'simulate',
      '--profile',
      profileId,
      '--queries',
      String(options.queries),
      '--days',
      String(options.days ?? 1),
      '--devices',
      String(options.devices ?? 3),
      '--seed',
      String(options.seed ?? 7),
      '--data-dir',
      server.dataDir,
      '--json',
    ],
    server.env,
  );
  if (result.code !== 0) throw new Error(`svc simulate failed (${result.code}): ${result.stderr}`);
  return JSON.parse(result.stdout) as SimulationSummary;
}

/** Flags the account an operator with `svc accounts set-operator` on the server's data dir. */
export async function makeOperator(server: DashboardServer, email: string): Promise<void> {
  const result = await runSvc(
    ['accounts', 'set-operator', email, '--data-dir', server.dataDir, '--json'],
    server.env,
  );
  if (result.code !== 0) throw new Error(`svc accounts set-operator failed: ${result.stderr}`);
}

/** Opens `path` of the dashboard and waits for its level-1 heading. */
export async function open(
  page: Page,
  server: DashboardServer,
  path: string,
  heading: string | RegExp,
): Promise<void> {
  await page.goto(`${server.url}${path}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}
