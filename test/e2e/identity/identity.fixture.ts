import { afterAll, beforeAll, expect } from 'vitest';
import { type ApiHarness, eventually, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { type RawAnswer, send } from '../../support/http.js';

export const DASHBOARD = 'http://localhost:3000';

export const PASSWORD = 'correct horse battery';

export const HOUR = 3_600_000;

export const DAY = 24 * HOUR;

let sequence = 0;

/** A fresh address per test, so tests never depend on each other's accounts. */
export function freshEmail(): string {
  sequence += 1;
  return `user${sequence}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/** The session cookie value a Set-Cookie header carries, or undefined. */
export function sessionCookieOf(answer: RawAnswer): string | undefined {
  return /svc_session=([^;]*)/.exec(answer.headers['set-cookie'] ?? '')?.[1];
}

/**
 * Starts the server on `storage` once for the suite, with the calls every identity behaviour uses: posting,
 * following a mailed link, signing in and creating a token.
 */
export function useIdentityFixture(storage: HarnessStorage) {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi(storage);
  }, 60_000);

  afterAll(async () => {
    await api?.close();
  });

  const post = (path: string, body: object, headers: Record<string, string> = {}) =>
    send(`${api.url}${path}`, { method: 'POST', body, headers });

  const withCookie = (cookie: string, extra: Record<string, string> = {}) => ({
    cookie: `svc_session=${cookie}`,
    ...extra,
  });

  async function linkIn(email: string, pattern: RegExp, count = 1): Promise<string> {
    const mails = await eventually(
      () => api.mailTo(email),
      (found) => found.length >= count,
    );
    const match = pattern.exec(mails[count - 1] ?? '');
    if (match?.[1] === undefined) throw new Error(`no link matching ${pattern} in mail to ${email}`);
    return decodeURIComponent(match[1]);
  }

  /** Signs up and verifies an address; returns its session cookie. */
  async function signedIn(
    email = freshEmail(),
    password = PASSWORD,
  ): Promise<{ email: string; cookie: string }> {
    expect((await post('/v1/auth/signup', { email, password })).status).toBe(202);
    const token = await linkIn(email, /verify-email\?token=([^\s"<]+)/);
    expect((await post('/v1/auth/verify', { token })).status).toBe(200);
    const login = await post('/v1/auth/login', { email, password });
    expect(login.status).toBe(200);
    const cookie = sessionCookieOf(login);
    if (cookie === undefined) throw new Error('no session cookie');
    return { email, cookie };
  }

  async function tokenFor(cookie: string, scopes: string[]): Promise<{ id: string; secret: string }> {
    const created = await post('/v1/tokens', { name: 'ci', scopes }, withCookie(cookie));
    expect(created.status).toBe(201);
    const body = created.json as { token: { id: string }; secret: string };
    return { id: body.token.id, secret: body.secret };
  }
  return {
    get api(): ApiHarness {
      return api;
    },
    post,
    withCookie,
    linkIn,
    signedIn,
    tokenFor,
  };
}

/** What every behaviour of the suite reads: the running server, its accounts and the helpers above. */
export type IdentityFixture = ReturnType<typeof useIdentityFixture>;
