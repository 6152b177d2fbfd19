import type { HttpEngine } from './http/http-engine.js';

/** Name of the session cookie (spec 5.1). */
export const SESSION_COOKIE = 'svc_session';

/**
 * What a client shares with those derived from it with `withOptions`: the session cookie and the HTTP engine
 * (built on the first call).
 */
export interface SessionJar {
  value: string | undefined;
  engine?: Promise<HttpEngine>;
}

/**
 * What the answer's Set-Cookie headers say about the session cookie: a new value, `null` when the server
 * cleared it (empty value, Max-Age 0 or an Expires in the past), `undefined` when they do not name it. Read
 * from the raw header list, since an Expires date holds a comma and joined headers cannot be split again.
 */
export function sessionCookieOf(setCookie: readonly string[]): string | null | undefined {
  let found: string | null | undefined;
  for (const header of setCookie) {
    const [pair = '', ...attributes] = header.split(';');
    const separator = pair.indexOf('=');
    if (separator < 0 || pair.slice(0, separator).trim() !== SESSION_COOKIE) continue;
    const value = pair.slice(separator + 1).trim();
    const expired = attributes.some((attribute) => {
      const [name = '', ...rest] = attribute.split('=');
      const setting = rest.join('=').trim();
      const key = name.trim().toLowerCase();
      if (key === 'max-age') return Number(setting) <= 0;
      if (key === 'expires') return Date.parse(setting) <= Date.now();
      return false;
    });
    found = value.length === 0 || expired ? null : value;
  }
  return found;
}
