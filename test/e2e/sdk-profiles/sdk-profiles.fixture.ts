import { createTestApp, type TestApp } from '@svc/http-server';
import { ApiError, createClient, type SvcClient } from '@svc/sdk';
import { ManualClock } from '@svc/testing/clock';
import { afterAll, beforeAll } from 'vitest';
import { eventually } from '../../support/api-harness.js';

const DASHBOARD = 'http://localhost:3000';
export const PASSWORD = 'correct horse battery';
export const STEP = 30_000;
/** A code that is certainly not `code`. */
export const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

let sequence = 0;
/** A fresh address per test, so tests never depend on each other's accounts. */
function freshEmail(): string {
  sequence += 1;
  return `sdk-profiles${sequence}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/** The token of the first emailed link to `email` matching `pattern` (one capture group). */
export async function emailedToken(app: TestApp, email: string, pattern: RegExp): Promise<string> {
  const found = await eventually(
    async () => app.mailer.to(email).flatMap((mail) => pattern.exec(mail.text)?.[1] ?? []),
    (tokens) => tokens.length > 0,
  );
  const token = found[0];
  if (token === undefined) throw new Error(`no link matching ${pattern} in mail to ${email}`);
  return decodeURIComponent(token);
}

/** What a rejected promise rejected with, to assert on an ApiError's fields. */
export async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  const failure = await promise.then(
    () => new Error('expected the call to fail'),
    (error: unknown) => error,
  );
  if (!(failure instanceof ApiError)) throw failure;
  return failure;
}

/** Signs up, verifies from the emailed link and signs in through the SDK; the client keeps the session. */
export async function signedIn(app: TestApp): Promise<{ session: SvcClient; email: string }> {
  const email = freshEmail();
  const session = createClient({ baseUrl: app.url, origin: DASHBOARD });
  await session.auth.signup({ email, password: PASSWORD });
  await session.auth.verify(await emailedToken(app, email, /verify-email\?token=([^\s"<]+)/));
  await session.auth.login({ email, password: PASSWORD });
  return { session, email };
}

/**
 * A client holding an API token with the profile scopes, as a script or CI job would use; `from` plays it on
 * a network with that public address (the API trusts the loopback proxy).
 */
export async function tokenClient(app: TestApp, from?: string): Promise<SvcClient> {
  const { session } = await signedIn(app);
  const { secret } = await session.tokens.create({
    name: 'sdk-profiles',
    scopes: ['profiles:read', 'profiles:write'],
  });
  if (from === undefined) return createClient({ baseUrl: app.url, token: secret });
  return createClient({
    baseUrl: app.url,
    token: secret,
    fetch: (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('x-forwarded-for', from);
      return fetch(input, { ...init, headers });
    },
  });
}
/** The API behind a loopback proxy on a manual clock, started once per file. */
export function useSdkProfilesApp() {
  const clock = new ManualClock();
  let app: TestApp;
  beforeAll(async () => {
    // The proxy in front of the API is on loopback: X-Forwarded-For plays a router on the internet.
    app = await createTestApp({ clock, env: { SVC_TRUST_PROXY: 'loopback' } });
  });
  afterAll(async () => app.close());
  return {
    clock,
    get app(): TestApp {
      return app;
    },
  };
}

/** What each behaviour reads: the running API and its clock. */
export type SdkProfilesFixture = ReturnType<typeof useSdkProfilesApp>;
