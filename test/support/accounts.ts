import type { ApiHarness } from './api-harness.js';
import { eventually } from './api-harness.js';
import { send } from './http.js';

const PASSWORD = 'correct horse battery';

/** A signed-up, verified account with a session cookie and an API token of the given scopes. */
export interface TestAccount {
  email: string;
  cookie: string;
  token: string;
  /** Headers authenticating with the API token. */
  auth: Record<string, string>;
}

let sequence = 0;

/** Signs an account up through HTTP, verifies it from the emailed link, signs in and creates a token. */
export async function createAccount(
  api: ApiHarness,
  scopes: string[] = ['profiles:read', 'profiles:write', 'account:read', 'logs:read', 'analytics:read'],
): Promise<TestAccount> {
  sequence += 1;
  const email = `owner${sequence}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  const signup = await send(`${api.url}/v1/auth/signup`, {
    method: 'POST',
    body: { email, password: PASSWORD },
  });
  if (signup.status !== 202) throw new Error(`signup answered ${signup.status}: ${signup.text}`);
  const mails = await eventually(
    () => api.mailTo(email),
    (found) => found.length > 0,
  );
  const token = decodeURIComponent(/verify-email\?token=([^\s"<]+)/.exec(mails[0] ?? '')?.[1] ?? '');
  await send(`${api.url}/v1/auth/verify`, { method: 'POST', body: { token } });
  const login = await send(`${api.url}/v1/auth/login`, {
    method: 'POST',
    body: { email, password: PASSWORD },
  });
  const cookie = /svc_session=([^;]*)/.exec(login.headers['set-cookie'] ?? '')?.[1];
  if (cookie === undefined) throw new Error(`login answered ${login.status}: ${login.text}`);
  const created = await send(`${api.url}/v1/tokens`, {
    method: 'POST',
    headers: { cookie: `svc_session=${cookie}` },
    body: { name: 'tests', scopes },
  });
  const secret = (created.json as { secret: string }).secret;
  return { email, cookie, token: secret, auth: { authorization: `Bearer ${secret}` } };
}
