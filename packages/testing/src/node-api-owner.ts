// A profile owner of a running API, for the tests of nodes (svc-node and the reference node) that read logs back.
/** An API token of a signed-up, verified account, as `Authorization` headers. */
export interface ApiOwner {
  auth: Record<string, string>;
}

async function call(url: string, method: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? null : (JSON.parse(text) as unknown), response };
}

/**
 * Signs an account up through the API, verifies it from the emailed link (`mailTo` reads the mail the API
 * sent), signs in and creates an API token with the scopes a profile's owner reads logs with.
 */
export async function createOwner(apiUrl: string, mailTo: (address: string) => string[]): Promise<ApiOwner> {
  const email = `node-owner-${Math.random().toString(36).slice(2, 10)}@example.test`;
  const password = 'correct horse battery';
  const signup = await call(`${apiUrl}/v1/auth/signup`, 'POST', { email, password });
  if (signup.status !== 202) throw new Error(`signup answered ${signup.status}`);
  let token: string | undefined;
  for (let attempt = 0; attempt < 200 && token === undefined; attempt += 1) {
    token = /verify-email\?token=([^\s"<&]+)/.exec(mailTo(email).join('\n'))?.[1];
    if (token === undefined) await new Promise((resolve) => setTimeout(resolve, 25));
  }
  if (token === undefined) throw new Error(`no verification mail for ${email}`);
  await call(`${apiUrl}/v1/auth/verify`, 'POST', { token: decodeURIComponent(token) });
  const login = await call(`${apiUrl}/v1/auth/login`, 'POST', { email, password });
  const cookie = /svc_session=([^;]*)/.exec(login.response.headers.get('set-cookie') ?? '')?.[1];
  if (cookie === undefined) throw new Error(`login answered ${login.status}`);
  const created = await call(
    `${apiUrl}/v1/tokens`,
    'POST',
    {
      name: 'node tests',
      scopes: ['account:read', 'profiles:read', 'profiles:write', 'logs:read', 'analytics:read'],
    },
    { cookie: `svc_session=${cookie}` },
  );
  const secret = (created.json as { secret: string }).secret;
  return { auth: { authorization: `Bearer ${secret}` } };
}
