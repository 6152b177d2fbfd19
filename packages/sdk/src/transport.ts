import { apiErrorOf, dataOf, type ReadAnswer } from './answer-reading.js';
import { NetworkError, RequestAbortedError, TimeoutError } from './errors.js';
import { loadEngine } from './http/engine-loader.js';
import type { HttpEngine } from './http/http-engine.js';
import { callHeaders, urlOf } from './request-building.js';
import { backoffMs, isRepeatable, retryDelayMs, sleep } from './retry-policy.js';
import { SESSION_COOKIE, type SessionJar, sessionCookieOf } from './session-cookie.js';
import type { ApiRequest, ApiResponse, ApiStream, ClientOptions, RequestOptions } from './transport.types.js';

export type {
  ApiRequest,
  ApiResponse,
  ApiStream,
  ClientOptions,
  CreateOptions,
  RequestOptions,
} from './transport.types.js';

/** One call as each of its attempts sends it. */
interface PreparedCall {
  call: ApiRequest;
  url: string;
  /** Kept across attempts (one Idempotency-Key for all); the cookie is set anew on each. */
  headers: Record<string, string>;
  body: string | undefined;
  maxRetries: number;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  /** `METHOD /path`, for error messages. */
  what: string;
}

/**
 * Sends API calls: credentials, JSON, problem documents as `ApiError`, automatic Idempotency-Key on
 * creating POSTs (one key reused across retries), time-outs and aborts, and retries with exponential back-off
 * and jitter of network failures and 429/502/503/504 answers, honouring Retry-After. It also keeps the
 * `svc_session` cookie: every answer's Set-Cookie for it replaces (login, renewal) or clears (logout) the
 * value sent on later calls.
 */
export class Transport {
  private readonly jar: SessionJar;
  private readonly defaults: RequestOptions;

  constructor(
    readonly options: ClientOptions,
    shared?: { jar: SessionJar; defaults: RequestOptions },
  ) {
    this.jar = shared?.jar ?? { value: options.sessionCookie };
    this.defaults = shared?.defaults ?? {};
  }

  /** A transport with `overrides` for every call, sharing this one's session cookie. */
  withOptions(overrides: RequestOptions): Transport {
    return new Transport(this.options, { jar: this.jar, defaults: { ...this.defaults, ...overrides } });
  }

  /** The HTTP engine, loaded on the first call (undici only then, by a dynamic import). */
  private engine(): Promise<HttpEngine> {
    this.jar.engine ??= loadEngine(this.options);
    return this.jar.engine;
  }

  private get session(): string | undefined {
    return this.jar.value;
  }

  private set session(value: string | undefined) {
    this.jar.value = value;
  }

  /**
   * The session cookie value as last set by the server (login, renewal), or undefined when signed out. Kept
   * per client, like a browser's cookie jar holding only `svc_session`.
   */
  get sessionCookie(): string | undefined {
    return this.session;
  }

  /** Forgets the session cookie, for a sign-out whose answer did not clear it (the session was already gone). */
  clearSession(): void {
    this.session = undefined;
  }

  /** Sends one call, retrying when it is safe to; problems throw ApiError, transport failures NetworkError. */
  async send<T>(call: ApiRequest): Promise<ApiResponse<T>> {
    const prepared = this.prepare(call);
    for (let attempt = 0; ; attempt += 1) {
      const answer = await this.attempt(prepared, attempt);
      // A network failure worth retrying, already waited for.
      if (answer === undefined) continue;
      const requestId = answer.headers['x-request-id'];
      if (answer.status < 400) {
        const data = dataOf<T>(answer, call.responseType);
        return { status: answer.status, data, headers: answer.headers, requestId };
      }
      const error = apiErrorOf(answer);
      const wait = retryDelayMs(attempt, error, this.maxDelayMs());
      if (attempt < prepared.maxRetries && wait !== undefined) {
        await sleep(wait, prepared.signal);
        continue;
      }
      throw error;
    }
  }

  private prepare(call: ApiRequest): PreparedCall {
    const headers = callHeaders(call, this.options);
    const maxRetries = isRepeatable(call.method, headers['idempotency-key'])
      ? (call.maxRetries ?? this.defaults.maxRetries ?? this.options.maxRetries ?? 2)
      : 0;
    return {
      call,
      url: urlOf(this.options.baseUrl, call.path, call.query),
      headers,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      maxRetries,
      timeoutMs: call.timeoutMs ?? this.defaults.timeoutMs ?? this.options.timeoutMs ?? 30_000,
      signal: call.signal ?? this.defaults.signal,
      what: `${call.method} ${call.path}`,
    };
  }

  /**
   * One attempt of a call: the answer read whole, or undefined after a network failure that is retried (once
   * its back-off was waited for). Throws when aborted, and on a network failure with no retry left.
   */
  private async attempt(prepared: PreparedCall, attempt: number): Promise<ReadAnswer | undefined> {
    const { call, headers, signal, timeoutMs, what } = prepared;
    // A function, not a narrowed property: the signal may abort during any await below.
    const aborted = () => signal?.aborted === true;
    if (aborted()) throw new RequestAbortedError(`${what} was aborted`, { cause: signal?.reason });
    // Read on every attempt: a concurrent call may have received a renewed cookie meanwhile.
    if (this.session === undefined || call.anonymous === true) delete headers.cookie;
    else headers.cookie = `${SESSION_COOKIE}=${this.session}`;
    const attemptControl = new AbortController();
    const timer = setTimeout(() => attemptControl.abort(), timeoutMs);
    const forwardAbort = () => attemptControl.abort();
    signal?.addEventListener('abort', forwardAbort, { once: true });
    let engine: HttpEngine | undefined;
    try {
      engine = await this.engine();
      const answer = await engine.send({
        url: prepared.url,
        method: call.method,
        headers,
        body: prepared.body,
        signal: attemptControl.signal,
        headersTimeoutMs: timeoutMs,
        bodyTimeoutMs: timeoutMs,
      });
      const renewed = sessionCookieOf(answer.setCookie);
      if (renewed !== undefined) this.session = renewed ?? undefined;
      // Inside the try: a connection reset while the body arrives is a network failure like a refused one.
      return { status: answer.status, headers: answer.headers, text: await answer.text() };
    } catch (cause) {
      if (aborted()) throw new RequestAbortedError(`${what} was aborted`, { cause });
      const timedOut = attemptControl.signal.aborted || engine?.isTimeout(cause) === true;
      if (attempt < prepared.maxRetries) {
        await sleep(backoffMs(attempt, this.maxDelayMs()), signal);
        return undefined;
      }
      const reason = cause instanceof Error ? cause.message : 'network error';
      if (timedOut) throw new TimeoutError(`${what} timed out after ${timeoutMs} ms`, { cause, timeoutMs });
      throw new NetworkError(`${what} failed: ${reason}`, { cause });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forwardAbort);
    }
  }

  /**
   * Opens a long-lived answer (server-sent events) once, without retries: an error status throws ApiError, a
   * transport failure NetworkError; otherwise the body is read as it arrives. `idleMs` ends a body silent
   * that long (a stream's heartbeats keep it busy).
   */
  async openStream(call: ApiRequest, signal: AbortSignal, idleMs: number): Promise<ApiStream> {
    const headers: Record<string, string> = { accept: 'text/event-stream', ...call.headers };
    if (this.options.token !== undefined) headers.authorization = `Bearer ${this.options.token}`;
    if (this.options.origin !== undefined) headers.origin = this.options.origin;
    if (this.session !== undefined) headers.cookie = `${SESSION_COOKIE}=${this.session}`;
    let answer: Awaited<ReturnType<HttpEngine['send']>>;
    try {
      answer = await (await this.engine()).send({
        url: urlOf(this.options.baseUrl, call.path, call.query),
        method: call.method,
        headers,
        body: undefined,
        signal,
        headersTimeoutMs: this.defaults.timeoutMs ?? this.options.timeoutMs ?? 30_000,
        bodyTimeoutMs: idleMs,
      });
    } catch (cause) {
      throw new NetworkError(
        `${call.method} ${call.path} failed: ${cause instanceof Error ? cause.message : 'network error'}`,
        { cause },
      );
    }
    if (answer.status >= 400) {
      throw apiErrorOf({ status: answer.status, headers: answer.headers, text: await answer.text() });
    }
    return { status: answer.status, headers: answer.headers, body: answer.body };
  }

  private maxDelayMs(): number {
    return (this.options.maxRetryDelaySeconds ?? 30) * 1000;
  }
}
