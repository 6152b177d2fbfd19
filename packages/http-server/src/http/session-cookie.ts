import { parse, serialize } from 'cookie';

/** Name of the session cookie (spec 5.1). */
const SESSION_COOKIE = 'svc_session';

/** The session token of a Cookie header, or undefined. */
export function sessionTokenOf(cookieHeader: string | undefined): string | undefined {
  if (cookieHeader === undefined) return undefined;
  const value = parse(cookieHeader)[SESSION_COOKIE];
  return value === undefined || value.length === 0 ? undefined : value;
}

/** Set-Cookie for a session token: HttpOnly, SameSite=Lax, Path=/, Secure outside development (ROUTES.md). */
export function sessionCookie(token: string, expiresAt: Date, secure: boolean): string {
  return serialize(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure,
    expires: expiresAt,
  });
}

/** Set-Cookie that clears the session cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return serialize(SESSION_COOKIE, '', {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure,
    expires: new Date(0),
  });
}
