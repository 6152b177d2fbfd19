import type { z } from 'zod';
import type { Principal } from '../http/principal.js';

/** HTTP methods the API uses. */
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call a route: `none` is public (rate limited per client IP), `account` takes a session or an API
 * token with `scope`, `session` refuses tokens (403 session_required), `node` takes a node token only.
 */
type AuthMode = 'none' | 'account' | 'session' | 'node';

/** A documented success response of a route. */
export interface SuccessResponse {
  description: string;
  schema?: z.ZodType;
  /** Defaults to application/json. */
  contentType?: string;
  headers?: Record<string, { description: string; schema: { type: 'string' | 'integer' } }>;
}

/** What a handler answers; the route layer serialises it and applies the common headers. */
export interface RouteResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** When set, `body` is sent as this text/bytes with this content type instead of JSON. */
  contentType?: string;
  /**
   * A response written over time (server-sent events): the headers go out at once, then `stream` writes to
   * the channel until it ends it or the client goes away.
   */
  stream?: (channel: EventChannel) => void;
  /**
   * Bytes sent as they are read (a large download), with `contentType`: each chunk is asked for only once the
   * client took the previous one. Should the first chunk fail, the error is answered as a problem; a later
   * failure aborts the response, which then falls short of its Content-Length.
   */
  bytes?: { length: number; chunks: AsyncIterable<Uint8Array> };
}

/** The open response of a streaming route. */
export interface EventChannel {
  /** Writes `text` and sends it to the client at once. */
  write(text: string): void;
  /** Ends the response. */
  end(): void;
  /** Called once when the response is over, whoever ended it (the route or the client). */
  onClose(listener: () => void): void;
}

/** What a handler receives: validated input and the request's facts, never the raw express objects. */
interface RouteContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  requestId: string;
  clientIp: string;
  principal: Principal | null;
  /** Request headers, lower-cased names. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** One operation of the API: everything the server and the OpenAPI document need, in one place. */
export interface RouteDefinition<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  /** OpenAPI-style path, e.g. `/v1/profiles/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  auth: AuthMode;
  /** Token scope needed when auth is `account`. */
  scope?: string;
  request?: { params?: P; query?: Q; body?: B };
  responses: Record<number, SuccessResponse>;
  /** Accepts Idempotency-Key (creating POSTs, spec 4.1.5). */
  idempotent?: boolean;
  /**
   * A credential change (spec 5.5.2): a session must have signed in within the step-up window, or 403
   * reauth_required. The pipeline checks it before an Idempotency-Key replay, which would otherwise hand the
   * first answer's secret to a session that could no longer mint it.
   */
  stepUp?: boolean;
  /**
   * The answer carries a secret shown once (a token, an enrolment code): its replay goes only to the
   * credential, session or API token, that made the first request; another one with the same key is 409
   * idempotency_key_reused (ADR 0018).
   */
  answersSecret?: boolean;
  /** Extra problem statuses the handler can answer beyond those implied by the other fields. */
  errorStatuses?: number[];
  /** Open to a restricted recovery session, which must set up a second factor first (spec 5.5.3). */
  allowRestricted?: boolean;
  /** A write open to an account in deletion cooling-off (undelete, logout); others answer 403 (spec 7). */
  allowPendingDeletion?: boolean;
  /** Marked deprecated in the OpenAPI document. */
  deprecated?: boolean;
  /** Declared as a method so that route tables can hold routes of different input types (bivariance). */
  handler(context: RouteContext<z.output<P>, z.output<Q>, z.output<B>>): Promise<RouteResult>;
}

/** Anything a route table holds; the type parameters of each route are checked at its definition. */
export type AnyRoute = RouteDefinition;

/** Defines a route with its handler's input typed from its schemas. */
export function defineRoute<
  P extends z.ZodType = z.ZodUnknown,
  Q extends z.ZodType = z.ZodUnknown,
  B extends z.ZodType = z.ZodUnknown,
>(route: RouteDefinition<P, Q, B>): AnyRoute {
  return route;
}
