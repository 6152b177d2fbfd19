import type { Request, Response } from 'express';
import type { Principal } from './principal.js';

/** Per-request facts kept on `res.locals`, set by the first middleware. */
export interface RequestLocals {
  requestId: string;
  clientIp: string;
  principal: Principal | null;
}

/** The locals of a request (set by the response-headers middleware, which runs first). */
export function localsOf(res: Response): RequestLocals {
  return res.locals as RequestLocals;
}

/** The lower-cased Origin header, or undefined. */
export function originOf(req: Request): string | undefined {
  const origin = req.headers.origin;
  return typeof origin === 'string' && origin.length > 0 ? origin : undefined;
}
