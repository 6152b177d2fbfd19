import { randomUUID } from 'node:crypto';
import { API_VERSION } from '@svc/domain';
import type { Request, Response } from 'express';
import { canonicalIp } from './client-ip.js';
import type { RequestLocals } from './request-locals.js';

/** The policy of every response: answers are data, never documents to render (spec 5.6). */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * Run first on every request: gives the request its id and sets the headers every response carries, errors
 * included (spec 4.1.2 and 5.6). HSTS goes wherever the session cookie is Secure. Without a trusted proxy
 * the client is the socket's peer, which is what express's `req.ip` computes then, minus parsing
 * X-Forwarded-For on every request.
 */
export function responseHeaders(options: { hsts: boolean; trustsProxy: boolean }) {
  return (req: Request, res: Response): void => {
    const address = options.trustsProxy ? req.ip : req.socket.remoteAddress;
    const locals: RequestLocals = {
      requestId: randomUUID(),
      clientIp: canonicalIp(address),
      principal: null,
    };
    Object.assign(res.locals, locals);
    res.setHeader('X-Request-Id', locals.requestId);
    res.setHeader('X-Svc-Api-Version', API_VERSION);
    res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (options.hsts) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  };
}
