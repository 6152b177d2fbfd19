import { createAccount, type TestAccount } from './accounts.js';
import { type ApiHarness, eventually } from './api-harness.js';
import { type RawAnswer, send } from './http.js';

/** A member of another account's organisation: their own account, acting in that organisation. */
export interface TestMember extends TestAccount {
  id: string;
  /** Cookie header of the member's session, acting in the organisation they joined. */
  session: Record<string, string>;
}

/** The `inv_` token of the newest invitation mailed to `email`. */
export async function invitationTokenFor(api: ApiHarness, email: string): Promise<string> {
  const mails = await eventually(
    () => api.mailTo(email),
    (found) => found.some((text) => text.includes('/invitations/accept?token=')),
  );
  const links = mails.flatMap((text) => [...text.matchAll(/invitations\/accept\?token=([^\s"<]+)/g)]);
  return decodeURIComponent(links.at(-1)?.[1] ?? '');
}

/** Sends a JSON request with the given headers. */
export function call(
  api: ApiHarness,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  headers: Record<string, string>,
  body?: object,
): Promise<RawAnswer> {
  return send(`${api.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
}

/** Invites a new account into `inviter`'s organisation with `role`; it accepts from its session. */
export async function joinAs(
  api: ApiHarness,
  inviter: Record<string, string>,
  role: string,
): Promise<TestMember> {
  const account = await createAccount(api);
  const invited = await call(api, 'POST', '/v1/org/invitations', inviter, { email: account.email, role });
  if (invited.status !== 201) throw new Error(`invitation answered ${invited.status}: ${invited.text}`);
  const session = { cookie: `svc_session=${account.cookie}` };
  const token = await invitationTokenFor(api, account.email);
  const accepted = await call(api, 'POST', '/v1/org/invitations/accept', session, { token });
  if (accepted.status !== 200) throw new Error(`accept answered ${accepted.status}: ${accepted.text}`);
  const me = await call(api, 'GET', '/v1/auth/me', session);
  return { ...account, id: (me.json as { account: { id: string } }).account.id, session };
}
