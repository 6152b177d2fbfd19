import { createClient, isAuth } from '@svc/sdk';

/** auth-and-tokens.md: sign in with a session, create an API token, use it, revoke it. */
export async function sessionThenToken(baseUrl: string, email: string, password: string): Promise<void> {
  const session = createClient({ baseUrl });
  await session.auth.login({ email, password }); // keeps the svc_session cookie
  const { token, secret } = await session.tokens.create({ name: 'ci', scopes: ['profiles:read'] });

  const ci = createClient({ baseUrl, token: secret }); // secret: shown this once only
  console.log((await ci.auth.me()).email);
  for await (const each of session.tokens.list()) console.log(each.name, each.scopes);
  await session.tokens.revoke(token.id);
  const refused = await ci.auth.me().catch((error: unknown) => error);
  console.log(isAuth(refused)); // true: 401 once revoked
  await session.auth.logout();
}

/** auth-and-tokens.md: in a browser the browser keeps the session cookie itself. */
export async function browserSession(email: string, password: string): Promise<void> {
  const svc = createClient({ baseUrl: 'https://api.example.com', credentials: 'include' });
  await svc.auth.login({ email, password }); // the browser stores svc_session (HttpOnly)
  console.log((await svc.auth.me()).email);
}
