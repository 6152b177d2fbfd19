import { describe, expect, it } from 'vitest';
import { sessionCookieOf } from '../src/session-cookie.js';

describe('sessionCookieOf', () => {
  it('takes the svc_session value the server sets, whatever its attributes (an Expires date holds a comma)', () => {
    const expires = new Date(Date.now() + 86_400_000).toUTCString();
    expect(sessionCookieOf([`svc_session=abc; Path=/; Expires=${expires}; HttpOnly; Secure`])).toBe('abc');
  });

  it('reads a cleared cookie as null: empty value, Max-Age 0 or an Expires in the past', () => {
    expect(sessionCookieOf(['svc_session=; Path=/'])).toBeNull();
    expect(sessionCookieOf(['svc_session=abc; Max-Age=0'])).toBeNull();
    expect(sessionCookieOf([`svc_session=abc; Expires=${new Date(0).toUTCString()}`])).toBeNull();
  });

  it('is undefined when no header names the session cookie, and the last one naming it wins', () => {
    expect(sessionCookieOf([])).toBeUndefined();
    expect(sessionCookieOf(['other=1; Path=/', 'svc_session_x=2'])).toBeUndefined();
    expect(sessionCookieOf(['svc_session=old', 'svc_session=new'])).toBe('new');
  });
});
