import { MailDispatcher } from '@svc/domain';
import { expect } from 'vitest';
import { type ApiHarness, eventually } from '../../support/api-harness.js';
import { type RawAnswer, send } from '../../support/http.js';

export const PASSWORD = 'correct horse battery';
export const DASHBOARD = 'http://localhost:3000';

let sequence = 0;
/** A fresh address per test, so tests never depend on each other's accounts. */
export function freshAddress(): string {
  sequence += 1;
  return `trust${sequence}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/** The session cookie value a Set-Cookie header carries, or undefined. */
function cookieOf(answer: RawAnswer): string | undefined {
  return /svc_session=([^;]*)/.exec(answer.headers['set-cookie'] ?? '')?.[1];
}

/** Headers presenting a session cookie, as a browser does. */
export function withCookie(cookie: string): Record<string, string> {
  return { cookie: `svc_session=${cookie}` };
}

/** The identity routes of one API, driven through raw HTTP as the dashboard drives them. */
export function identityClient(api: ApiHarness) {
  const post = (path: string, body?: object, headers: Record<string, string> = {}) =>
    send(`${api.url}${path}`, { method: 'POST', headers, ...(body === undefined ? {} : { body }) });

  /** Sends every mail due now, so that what a request queued can be counted. */
  const deliverMail = async (): Promise<void> => {
    await (await api.container.getAsync<MailDispatcher>(MailDispatcher)).drain();
  };

  /** The `count`-th mail to `email` (1-based), once it arrives. */
  const mailTo = async (email: string, count = 1): Promise<string> => {
    const mails = await eventually(
      () => api.mailTo(email),
      (found) => found.length >= count,
    );
    const mail = mails[count - 1];
    if (mail === undefined) throw new Error(`no mail number ${count} to ${email}`);
    return mail;
  };

  /** The token of the first link matching `pattern` in the `count`-th mail to `email`. */
  const linkIn = async (email: string, pattern: RegExp, count = 1): Promise<string> => {
    const match = pattern.exec(await mailTo(email, count));
    if (match?.[1] === undefined) throw new Error(`no link matching ${pattern} in mail to ${email}`);
    return decodeURIComponent(match[1]);
  };

  /** Signs in with the password; returns the session cookie. */
  const signIn = async (email: string, password = PASSWORD, extra: object = {}): Promise<string> => {
    const answer = await post('/v1/auth/login', { email, password, ...extra });
    expect(answer.status, answer.text).toBe(200);
    const cookie = cookieOf(answer);
    if (cookie === undefined) throw new Error('no session cookie');
    return cookie;
  };

  /** Signs an address up without verifying it; its verification link is the first mail. */
  const signUp = async (email = freshAddress(), password = PASSWORD): Promise<string> => {
    expect((await post('/v1/auth/signup', { email, password })).status).toBe(202);
    return email;
  };

  /** Opens the emailed verification link (the `count`-th mail) as the dashboard page does. */
  const verify = async (email: string, count = 1): Promise<RawAnswer> =>
    post('/v1/auth/verify', { token: await linkIn(email, /verify-email\?token=([^\s"<]+)/, count) });

  return { post, deliverMail, mailTo, linkIn, signIn, signUp, verify };
}
