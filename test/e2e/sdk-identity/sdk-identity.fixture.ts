import { createTestApp, type TestApp } from '@svc/http-server';
import { type Account, ApiError, createClient, type SvcClient } from '@svc/sdk';
import { afterAll, beforeAll } from 'vitest';
import { eventually } from '../../support/api-harness.js';

export const DASHBOARD = 'http://localhost:3000';
export const PASSWORD = 'correct horse battery';
export const DAY = 24 * 3_600_000;

let sequence = 0;
/** A fresh address per test, so tests never depend on each other's accounts. */
export function freshEmail(): string {
  sequence += 1;
  return `sdk${sequence}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/** The token of the `count`-th emailed link to `email` whose path matches `page` (e.g. `verify-email`). */
export async function emailedToken(app: TestApp, email: string, page: string, count = 1): Promise<string> {
  const pattern = new RegExp(`/${page}\\?token=([^\\s"<]+)`);
  const links = await eventually(
    async () => app.mailer.to(email).flatMap((mail) => pattern.exec(mail.text)?.[1] ?? []),
    (found) => found.length >= count,
  );
  const link = links[count - 1];
  if (link === undefined) throw new Error(`no ${page} link in mail to ${email}`);
  return decodeURIComponent(link);
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

/** Signs up, verifies and signs in through the SDK; the client holds the session from then on. */
export async function signedIn(
  app: TestApp,
  email = freshEmail(),
): Promise<{ client: SvcClient; email: string; account: Account }> {
  const client = createClient({ baseUrl: app.url, origin: DASHBOARD });
  await client.auth.signup({ email, password: PASSWORD });
  await client.auth.verify(await emailedToken(app, email, 'verify-email'));
  const account = await client.auth.login({ email, password: PASSWORD });
  return { client, email, account };
}
/** The API, started once per file. */
export function useSdkIdentityApp() {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => app.close());
  return {
    get app(): TestApp {
      return app;
    },
  };
}

/** What each behaviour reads: the running API. */
export type SdkIdentityFixture = ReturnType<typeof useSdkIdentityApp>;
