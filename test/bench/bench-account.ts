import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A verified account of the benchmark, its password and an API token with `account:read`. */
export interface BenchAccount {
  email: string;
  password: string;
  token: string;
}

async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: unknown; setCookie: string[] }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    json: text === '' ? null : JSON.parse(text),
    setCookie: response.headers.getSetCookie(),
  };
}

function expectStatus(step: string, answer: { status: number; json: unknown }, status: number): void {
  if (answer.status !== status)
    throw new Error(`${step}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.json)}`);
}

/** Undoes quoted-printable soft breaks and `=3D`, enough to read the link out of an .eml file. */
function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
}

/** Waits for the verification mail in the outbox folder (the mail queue sends it after the answer). */
async function verificationToken(dataDir: string, email: string): Promise<string> {
  const folder = join(dataDir, 'mail');
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const names = existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.eml')) : [];
    for (const name of names) {
      const message = decodeQuotedPrintable(readFileSync(join(folder, name), 'utf8'));
      if (!message.includes(`To: ${email}`)) continue;
      const token = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(message)?.[1];
      if (token !== undefined) return token;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no verification mail for ${email} in ${folder}`);
}

/**
 * Signs up `email` (one organisation each), verifies from the outbox, signs in and creates an API token
 * (`account:read` unless told).
 */
export async function createBenchAccount(
  url: string,
  dataDir: string,
  scopes: readonly string[] = ['account:read'],
  email = 'bench@example.test',
): Promise<BenchAccount> {
  const password = 'bench password of some length';
  expectStatus('signup', await post(`${url}/v1/auth/signup`, { email, password }), 202);
  const verified = await post(`${url}/v1/auth/verify`, { token: await verificationToken(dataDir, email) });
  expectStatus('verify', verified, 200);
  const login = await post(`${url}/v1/auth/login`, { email, password });
  expectStatus('login', login, 200);
  const session = login.setCookie
    .map((cookie) => /^svc_session=([^;]+)/.exec(cookie)?.[1])
    .find((value) => value !== undefined);
  if (session === undefined) throw new Error('login: no svc_session cookie');
  const created = await post(
    `${url}/v1/tokens`,
    { name: 'bench', scopes },
    { cookie: `svc_session=${session}` },
  );
  expectStatus('create token', created, 201);
  return { email, password, token: (created.json as { secret: string }).secret };
}
