import { createClient, type SvcClient } from '@svc/sdk';
import type { InProcessApi } from '@svc/testing/in-process-api';
import { replaceApiClient } from '../api/client.js';

/** The password of test accounts. */
export const PASSWORD = 'correct horse battery staple';

let sequence = 0;

/** A fresh address for a test account. */
export function newEmail(label = 'person'): string {
  sequence += 1;
  return `${label}${sequence}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/**
 * Points the dashboard's pages at `server` with a new, signed-out SDK client, and returns it. On Node the SDK
 * keeps the session cookie itself (from Set-Cookie, sent back as Cookie), as the browser's jar does for the
 * page, and it sends the dashboard's Origin, as a browser does for the page, so the server's CSRF check sees
 * what it sees in production. No retries: a test sees the first answer.
 */
export function connectPages(server: InProcessApi): SvcClient {
  const client = createClient({ baseUrl: server.url, origin: server.dashboardOrigin, maxRetries: 0 });
  replaceApiClient(client);
  return client;
}

/** Signs an account up and verifies it from the emailed link, on a client of its own; returns its address. */
export async function verifiedAccount(server: InProcessApi, email = newEmail()): Promise<string> {
  const client = createClient({ baseUrl: server.url, origin: server.dashboardOrigin, maxRetries: 0 });
  await client.auth.signup({ email, password: PASSWORD });
  const link = await server.linkFromEmail(email, /\/verify-email\?token=/);
  await client.auth.verify(new URL(link).searchParams.get('token') ?? '');
  return email;
}

/**
 * A verified account signed in on the client the pages use (as a person who signed in on the page is):
 * the pages then act as that account, through its session.
 */
export async function signedIn(
  server: InProcessApi,
  email?: string,
): Promise<{ email: string; client: SvcClient }> {
  const address = await verifiedAccount(server, email);
  const client = connectPages(server);
  await client.auth.login({ email: address, password: PASSWORD });
  return { email: address, client };
}
