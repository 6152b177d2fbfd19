import { DeviceSightings } from '@svc/domain';
import { createTestApp, type TestApp } from '@svc/http-server';

/** The dashboard origin the in-process API accepts session writes from (its SVC_DASHBOARD_URL). */
export const DASHBOARD_ORIGIN = 'http://localhost:3000';

/** The whole API in the test's own process on in-memory stores, and what it mailed. */
export interface InProcessApi {
  /** `http://127.0.0.1:<port>`, the base URL to give an SDK client. */
  url: string;
  /** The origin a client signed in with a session must send (as a browser page on the dashboard does). */
  dashboardOrigin: string;
  /** The running server, for what a test needs beyond HTTP (the clock, the bus). */
  app: TestApp;
  /** Texts of the emails sent to `address`, oldest first. */
  mailTo(address: string): string[];
  /**
   * Waits for an email to `address` holding a link whose path matches `path` (mail leaves through an outbox, a
   * moment after the call that caused it) and returns the link.
   */
  linkFromEmail(address: string, path: RegExp): Promise<string>;
  /** Plays the resolvers: a device naming itself `name` in the DoH path queried for the profile just now. */
  seeDevice(profileId: string, name: string): Promise<void>;
  close(): Promise<void>;
}

const MAIL_WAIT_MS = 10_000;

/**
 * Starts the API on loopback with its in-memory adapters, for tests of a client (the dashboard's components,
 * a script) that want the real routes, validation and problems without engines: it starts in well under a
 * second. `env` adds settings (a signup mode, limits).
 */
export async function startInProcessApi(env: Record<string, string> = {}): Promise<InProcessApi> {
  const app = await createTestApp({ env: { SVC_DASHBOARD_URL: DASHBOARD_ORIGIN, ...env } });
  const mailTo = (address: string) => app.mailer.to(address).map((message) => message.text);
  return {
    url: app.url,
    dashboardOrigin: DASHBOARD_ORIGIN,
    app,
    mailTo,
    async linkFromEmail(address, path) {
      const pattern = new RegExp(`https?://[^\\s"<>]*${path.source}[^\\s"<>]*`);
      const deadline = Date.now() + MAIL_WAIT_MS;
      for (;;) {
        const link = mailTo(address)
          .map((text) => pattern.exec(text)?.[0])
          .find((found) => found !== undefined);
        if (link !== undefined) return link;
        if (Date.now() > deadline) throw new Error(`no email to ${address} with a link matching ${path}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    seeDevice: (profileId, name) =>
      app.container
        .get<DeviceSightings>(DeviceSightings)
        .record([{ profileId, name, identification: 'doh_path', transport: 'doh', seenAt: new Date() }]),
    close: () => app.close(),
  };
}
