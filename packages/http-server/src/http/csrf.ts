import { DomainError } from '@svc/domain';
import type { Request } from 'express';
import type { CorsOrigins } from './cors.js';
import type { Principal } from './principal.js';
import { originOf } from './request-locals.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF by Origin (spec 5.2.4). Cookie-authenticated writes must come from a dashboard origin; the
 * unauthenticated /v1/auth writes refuse a present Origin that is not allowed. Requests without Origin are
 * unaffected, except a cookie write a browser marks `Sec-Fetch-Site: cross-site`.
 */
export function assertSameOriginWrite(req: Request, principal: Principal | null, origins: CorsOrigins): void {
  if (SAFE_METHODS.has(req.method)) return;
  const origin = originOf(req);
  const reject = () => new DomainError('csrf_rejected', 'This write did not come from an allowed origin.');
  if (principal?.viaCookie === true) {
    if (
      origin !== undefined ? !origins.dashboard.has(origin) : req.headers['sec-fetch-site'] === 'cross-site'
    ) {
      throw reject();
    }
    return;
  }
  if (principal === null && req.path.startsWith('/v1/auth/') && origin !== undefined) {
    const allowed =
      origins.dashboard.has(origin) || (req.path === '/v1/auth/signup' && origins.signup.has(origin));
    if (!allowed) throw reject();
  }
}
