import { pipeline, Readable } from 'node:stream';
import {
  assertRecentSignIn,
  assertRoleAllows,
  type Clock,
  DomainError,
  type IdempotencyService,
  type KeyedHash,
  type StoredResponse,
} from '@svc/domain';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AnyRoute, RouteResult } from '../routes/route-definition.js';
import { canonicalJson } from './canonical-json.js';
import type { CorsOrigins } from './cors.js';
import { assertSameOriginWrite } from './csrf.js';
import type { Authenticator, Principal } from './principal.js';
import type { ClientIpRateLimiter } from './rate-limit.js';
import { localsOf } from './request-locals.js';
import { assertNoFieldErrors, type CodedFieldError, parsePart } from './validate-input.js';

/** What every route pipeline needs from the composition root. */
export interface PipelineDependencies {
  authenticator: Authenticator;
  idempotency: IdempotencyService;
  keyedHash: KeyedHash;
  rateLimiter: ClientIpRateLimiter;
  origins: CorsOrigins;
  /** Outside development, admin routes need a strong sign-in (spec 5.4). */
  requireStrongAdminSignIn: boolean;
  /** The step-up window of credential changes counts on it. */
  clock: Clock;
}

/** Headers of a first response worth replaying with it. */
const REPLAYED_HEADERS = ['location', 'etag', 'content-type', 'deprecation', 'sunset'];

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

function authorise(route: AnyRoute, principal: Principal | null, strongAdmin: boolean): void {
  if (route.auth === 'none') return;
  if (principal === null) throw new DomainError('unauthenticated', 'This route needs a credential.');
  if (route.auth === 'node') {
    if (principal.kind !== 'node')
      throw new DomainError('unauthenticated', 'This route takes a node token only.');
    return;
  }
  if (principal.kind === 'node')
    throw new DomainError('unauthenticated', 'Node tokens are accepted only by node endpoints.');
  if (route.auth === 'session' && principal.kind !== 'session') {
    throw new DomainError(
      'session_required',
      'This operation needs a signed-in session; API tokens cannot use it.',
    );
  }
  if (principal.session?.restricted === true && route.allowRestricted !== true) {
    throw new DomainError(
      'mfa_enrolment_required',
      'This recovery session must set up a second factor (POST /v1/auth/totp) before anything else.',
    );
  }
  if (
    principal.account?.deletionRequestedAt != null &&
    route.method !== 'get' &&
    route.allowPendingDeletion !== true
  ) {
    throw new DomainError(
      'account_pending_deletion',
      'This account is pending deletion: cancel it (POST /v1/auth/me/undelete) before changing anything.',
    );
  }
  if (route.scope !== undefined && !principal.scopes.has(route.scope)) {
    // Scopes grant only what they name (spec 5.4): a token made to change profiles cannot read them, which
    // surprises; the answer says so when that is the case.
    const writeScope = route.scope.endsWith(':read') ? route.scope.replace(/:read$/, ':write') : undefined;
    const hint =
      writeScope !== undefined && principal.scopes.has(writeScope)
        ? ` This token has ${writeScope}, which does not include reading: create a token with both ${route.scope} and ${writeScope}.`
        : '';
    throw new DomainError('insufficient_scope', `This operation needs the ${route.scope} scope.${hint}`);
  }
  // The role matrix (issue 39): checked for tokens too, so a token never does more than its maker's role.
  assertRoleAllows(route.method, route.path, principal.role);
  if (
    route.scope === 'admin' &&
    strongAdmin &&
    principal.kind === 'session' &&
    principal.session?.strong !== true
  ) {
    throw new DomainError(
      'mfa_required',
      'Operator routes need a sign-in with a passkey or a password and an authenticator code.',
    );
  }
}

/**
 * The step-up of a credential change, here rather than only in the use case: a replay never reaches the use
 * case, and must not hand out a secret the session could no longer mint (issue 35). API tokens cannot reach
 * these routes (`auth: 'session'`); were one to, it has no sign-in to be recent.
 */
function assertStepUp(route: AnyRoute, principal: Principal | null, clock: Clock): void {
  if (route.stepUp !== true || principal?.session == null) return;
  assertRecentSignIn(principal.session, clock.now());
}

/**
 * Who a stored secret may be replayed to: the session or API token that made the first request, not merely its
 * account (another session of it, a token of it). Part of the fingerprint, so that another credential's reuse
 * of the key is the spec's key reuse.
 */
function replayBinding(route: AnyRoute, principal: Principal | null): string {
  if (route.answersSecret !== true || principal === null) return '';
  return principal.session === null ? `${principal.actor}\n` : `session:${principal.session.id}\n`;
}

/**
 * The caller's credential. Public routes ignore one that is no longer valid: a browser still holding an ended
 * session cookie must be able to sign in again, read the meta routes and so on.
 */
async function principalOf(
  route: AnyRoute,
  authenticator: Authenticator,
  req: Request,
  clientIp: string,
): Promise<Principal | null> {
  try {
    return await authenticator.authenticate({ headers: req.headers, clientIp });
  } catch (error) {
    if (
      route.auth === 'none' &&
      error instanceof DomainError &&
      (error.code === 'unauthenticated' || error.code === 'node_revoked')
    )
      return null;
    throw error;
  }
}

/**
 * `res.status(status).json(body)` as express answers it in this app (no ETag, default JSON settings), written
 * directly: express's send re-parses the Content-Type and re-reads its settings on every answer. Whatever it
 * treats specially still goes through it: HEAD, conditional requests (`req.fresh` can turn them into 304),
 * statuses without a body, and a Content-Type or Transfer-Encoding a route set itself.
 */
function sendJson(req: Request, res: Response, status: number, body: unknown): void {
  if (
    req.method === 'HEAD' ||
    req.headers['if-none-match'] !== undefined ||
    req.headers['if-modified-since'] !== undefined ||
    status === 204 ||
    status === 205 ||
    status === 304 ||
    res.hasHeader('Content-Type') ||
    res.hasHeader('Transfer-Encoding')
  ) {
    res.status(status).json(body);
    return;
  }
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

function writeResult(req: Request, res: Response, next: NextFunction, result: RouteResult): void {
  if (result.headers !== undefined) {
    for (const [name, value] of Object.entries(result.headers)) {
      if (name.toLowerCase() === 'set-cookie') res.append('Set-Cookie', value);
      else res.setHeader(name, value);
    }
  }
  if (result.stream !== undefined) {
    openStream(res, result.status, result.stream);
  } else if (result.bytes !== undefined) {
    sendBytes(req, res, next, result);
  } else if (result.body === undefined) {
    res.status(result.status).end();
  } else if (result.contentType !== undefined) {
    res.status(result.status).type(result.contentType).send(result.body);
  } else {
    sendJson(req, res, result.status, result.body);
  }
}

/**
 * Pipes the result's chunks to the response with backpressure: the readable holds at most one chunk and asks
 * for the next only when the socket drained. The first chunk is read before anything is sent, so that its
 * failure (the archive gone meanwhile) is still answered as a problem, without the result's own headers; a
 * later failure aborts the response, short of its Content-Length.
 */
function sendBytes(req: Request, res: Response, next: NextFunction, result: RouteResult): void {
  const bytes = result.bytes;
  if (bytes === undefined) return;
  const head = () => {
    res.status(result.status);
    res.setHeader('Content-Type', result.contentType ?? 'application/octet-stream');
    res.setHeader('Content-Length', bytes.length);
  };
  if (req.method === 'HEAD') {
    head();
    res.end();
    return;
  }
  const chunks = bytes.chunks[Symbol.asyncIterator]();
  chunks.next().then(
    (first) => {
      head();
      async function* all(): AsyncGenerator<Uint8Array> {
        for (let step = first; step.done !== true; step = await chunks.next()) yield step.value;
      }
      pipeline(Readable.from(all(), { objectMode: false, highWaterMark: 1 }), res, (error) => {
        // Node passes undefined, not null, when the pipeline finished; a client that went away mid-download
        // is no failure of the server.
        if (error === null || error === undefined || error.code === 'ERR_STREAM_PREMATURE_CLOSE') return;
        next(error);
      });
    },
    (error: unknown) => {
      for (const name of Object.keys(result.headers ?? {})) res.removeHeader(name);
      next(error);
    },
  );
}

/** Sends the headers now and hands the open response to the route; each write goes out as it is made. */
function openStream(res: Response, status: number, stream: NonNullable<RouteResult['stream']>): void {
  res.status(status);
  res.flushHeaders();
  const listeners: Array<() => void> = [];
  let closed = res.destroyed;
  res.once('close', () => {
    closed = true;
    for (const listener of listeners) listener();
  });
  stream({
    write: (text) => {
      if (!res.writableEnded) res.write(text);
    },
    end: () => {
      if (!res.writableEnded) res.end();
    },
    onClose: (listener) => {
      if (closed) listener();
      else listeners.push(listener);
    },
  });
}

function storedResponseOf(result: RouteResult): StoredResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) {
    if (REPLAYED_HEADERS.includes(name.toLowerCase())) headers[name] = value;
  }
  const body =
    result.body === undefined
      ? ''
      : result.contentType !== undefined
        ? String(result.body)
        : JSON.stringify(result.body);
  if (result.body !== undefined)
    headers['Content-Type'] = result.contentType ?? 'application/json; charset=utf-8';
  return { status: result.status, headers, body };
}

function replay(res: Response, stored: StoredResponse): void {
  for (const [name, value] of Object.entries(stored.headers)) res.setHeader(name, value);
  res.setHeader('Idempotent-Replayed', 'true');
  res.status(stored.status);
  if (stored.body === '') res.end();
  else res.send(stored.body);
}

/**
 * The express handler of one route: rate limit, credential, scope, CSRF, step-up, input validation,
 * idempotency, then the handler. Every failure goes to the problem middleware.
 */
export function routePipeline(route: AnyRoute, deps: PipelineDependencies): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const locals = localsOf(res);
      if (route.auth === 'none') deps.rateLimiter.consume(locals.clientIp);
      const principal = await principalOf(route, deps.authenticator, req, locals.clientIp);
      locals.principal = principal;
      if (principal?.setCookie !== undefined) res.append('Set-Cookie', principal.setCookie);
      authorise(route, principal, deps.requireStrongAdminSignIn);
      assertSameOriginWrite(req, principal, deps.origins);
      assertStepUp(route, principal, deps.clock);

      const bodySchema = route.request?.body;
      if (bodySchema !== undefined && hasBody(req) && !req.is(['application/json', 'application/*+json'])) {
        throw new DomainError('unsupported_media_type', 'Send the request body as application/json.');
      }
      const errors: CodedFieldError[] = [];
      const request = route.request;
      // req.query is parsed by a getter: read it only for routes that declare a query.
      const params =
        request?.params === undefined ? undefined : parsePart(request.params, req.params, 'path', errors);
      const query =
        request?.query === undefined ? undefined : parsePart(request.query, req.query, 'query', errors);
      const body = parsePart(bodySchema, req.body ?? {}, 'body', errors);
      assertNoFieldErrors(errors);

      const context = {
        params,
        query,
        body,
        requestId: locals.requestId,
        clientIp: locals.clientIp,
        principal,
        headers: req.headers,
      };
      const key = route.idempotent === true ? req.headers['idempotency-key'] : undefined;
      if (typeof key !== 'string') {
        writeResult(req, res, next, await route.handler(context));
        return;
      }
      const scope = principal?.accountId ?? `ip:${locals.clientIp}`;
      const fingerprint = deps.keyedHash.sha256(
        `${replayBinding(route, principal)}${req.method} ${req.originalUrl}\n${canonicalJson(req.body ?? null)}`,
      );
      const start = await deps.idempotency.start(scope, key, fingerprint);
      if (start.kind === 'replay') {
        replay(res, start.response);
        return;
      }
      let result: RouteResult;
      try {
        result = await route.handler(context);
      } catch (error) {
        await deps.idempotency.abandon(scope, key);
        throw error;
      }
      await deps.idempotency.finish(scope, key, storedResponseOf(result));
      writeResult(req, res, next, result);
    } catch (error) {
      next(error);
    }
  };
}
