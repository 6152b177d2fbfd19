import type { SvcClient } from '@svc/sdk';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import {
  type DashboardServer,
  launchBrowser,
  newEmail,
  newPage,
  signIn,
  startDashboardServer,
  verifiedAccount,
} from './dashboard-browser.js';
import { open, signedInClient } from './dashboard-data.js';

/**
 * What the tests of one describe share: one server and one Chromium, and one verified account with the SDK
 * signed in as it (the test's own hands). Read its fields inside tests and hooks only: they are set by the
 * `beforeAll` that {@link signedInDashboard} registers.
 */
export interface SignedInDashboard<S extends DashboardServer> {
  readonly server: S;
  readonly browser: Browser;
  readonly email: string;
  readonly api: SvcClient;
  /**
   * A new browser context signed in as the account through the sign-in page, with `timeout` as the page's
   * default; at `path` (waiting for its level-1 `heading`) when one is given.
   */
  signedInPage(options?: {
    path?: string;
    heading?: string | RegExp;
    timeout?: number;
    context?: Parameters<Browser['newContext']>[0];
  }): Promise<{ page: Page; context: BrowserContext }>;
}

/** Options of {@link signedInDashboard}. */
export interface SignedInDashboardOptions<S extends DashboardServer> {
  /** Starts the server (`startDashboardServer()` unless given, e.g. `startInProcessDashboard`). */
  start?: () => Promise<S>;
  /** The page's default timeout in `signedInPage` (20 s unless given). */
  timeout?: number;
}

/**
 * Registers the `beforeAll` and `afterAll` of a describe whose tests drive the dashboard as one signed-in
 * account: the server and the browser start together, the account (its address labelled `label`) is verified
 * and signed in on an SDK client; both are closed after the last test.
 */
export function signedInDashboard(
  label: string,
  options?: { timeout?: number },
): SignedInDashboard<DashboardServer>;
export function signedInDashboard<S extends DashboardServer>(
  label: string,
  options: SignedInDashboardOptions<S> & { start: () => Promise<S> },
): SignedInDashboard<S>;
export function signedInDashboard(
  label: string,
  options: SignedInDashboardOptions<DashboardServer> = {},
): SignedInDashboard<DashboardServer> {
  type S = DashboardServer;
  const start = options.start ?? (() => startDashboardServer());
  let shared: { server: S; browser: Browser; email: string; api: SvcClient } | undefined;
  let server: S | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [server, browser] = await Promise.all([start(), launchBrowser()]);
    const email = await verifiedAccount(server, newEmail(label));
    shared = { server, browser, email, api: await signedInClient(server, email) };
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  const ready = () => {
    if (shared === undefined) throw new Error('read the signed-in dashboard inside a test or a hook');
    return shared;
  };
  return {
    get server() {
      return ready().server;
    },
    get browser() {
      return ready().browser;
    },
    get email() {
      return ready().email;
    },
    get api() {
      return ready().api;
    },
    async signedInPage({ path, heading, timeout = options.timeout ?? 20_000, context: contextOptions } = {}) {
      const { server: current, browser: chromium, email } = ready();
      const { page, context } = await newPage(chromium, contextOptions);
      page.setDefaultTimeout(timeout);
      await signIn(page, current, email);
      if (path !== undefined) await open(page, current, path, heading ?? /./);
      return { page, context };
    },
  };
}
