import { setTimeout as sleep } from 'node:timers/promises';
import { createGunzip } from 'node:zlib';
import {
  type ListSourceFetcher,
  SourceFetchError,
  type SourceFetchOutcome,
  type SourceValidators,
} from '@svc/domain';
import { Agent, type Dispatcher, request } from 'undici';
import { forbiddenTargetIn, publicOnlyLookup, refusedTarget } from '../network/outbound-target.js';

/** How list sources are fetched. */
export interface ListSourceFetcherOptions {
  /** Largest body read (after decompression); a larger one fails the fetch. */
  maxBytes: number;
  /** Time-out of one attempt, body included. */
  timeoutMs: number;
  /** Attempts in all (the first and its retries). */
  attempts?: number;
  /** Wait before the first retry; doubled each retry, with jitter. */
  backoffMs?: number;
  /** Longest wait a `Retry-After` may ask for. */
  maxBackoffMs?: number;
  /** Sent as User-Agent: list hosts ask for one that names the fetcher. */
  userAgent?: string;
  /**
   * Lets redirects lead to plain http and to loopback, private, link-local or reserved addresses
   * (SVC_OUTBOUND_ALLOW_PRIVATE: self-hosted installs whose list hosts are internal, tests). Otherwise a
   * redirect must be https to a public address, checked after resolution on the connection itself.
   */
  allowPrivate?: boolean;
  /** Replaces the HTTP agent of the first request (tests). */
  dispatcher?: Dispatcher;
}

const MAX_REDIRECTIONS = 5;
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Failures worth another attempt: a 5xx or 429, a time-out, a network error. */
function retryable(error: SourceFetchError): boolean {
  if (error.reason === 'http_status') return error.httpStatus === 429 || (error.httpStatus ?? 0) >= 500;
  return error.reason === 'timeout' || error.reason === 'network';
}

/** The delay a `Retry-After` header asks for, in ms (seconds or an HTTP date), or undefined. */
function retryAfterMs(header: string | string[] | undefined, now: number): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function headerValue(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  return value === undefined || value === '' ? null : value;
}

/**
 * Fetches list sources with undici: a conditional GET (If-None-Match, If-Modified-Since) following a few
 * redirects (the first address is the catalogue's or the operator's mirror; where a redirect leads is the
 * list host's choice, so it must be https to a public address unless `allowPrivate`), gzip bodies decompressed, the body handed to the consumer as it arrives and cut off (failing the
 * fetch) past `maxBytes` after decompression, each attempt bounded by `timeoutMs`, and failures worth it
 * retried with exponential backoff and jitter (honouring `Retry-After` up to a cap).
 */
export class UndiciListSourceFetcher implements ListSourceFetcher {
  private readonly dispatcher: Dispatcher;
  /** Connects redirect targets only to the public addresses their names resolve to. */
  private readonly redirectDispatcher: Dispatcher;

  constructor(private readonly options: ListSourceFetcherOptions) {
    this.dispatcher = options.dispatcher ?? new Agent();
    this.redirectDispatcher =
      options.allowPrivate === true
        ? this.dispatcher
        : new Agent({ connect: { lookup: publicOnlyLookup() } });
  }

  async fetch<T>(
    url: string,
    validators: SourceValidators,
    consume: (body: AsyncIterable<Uint8Array>) => Promise<T>,
  ): Promise<SourceFetchOutcome<T>> {
    const attempts = Math.max(1, this.options.attempts ?? 3);
    let backoff = this.options.backoffMs ?? 2_000;
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.attempt(url, validators, consume);
      } catch (error) {
        if (!(error instanceof SourceFetchError) || !retryable(error) || attempt >= attempts) throw error;
        const asked = error instanceof RetryLater ? error.afterMs : undefined;
        const jittered = backoff * (0.5 + Math.random());
        await sleep(Math.min(asked ?? jittered, this.options.maxBackoffMs ?? 60_000));
        backoff *= 2;
      }
    }
  }

  private async attempt<T>(
    url: string,
    validators: SourceValidators,
    consume: (body: AsyncIterable<Uint8Array>) => Promise<T>,
  ): Promise<SourceFetchOutcome<T>> {
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    const headers: Record<string, string> = {
      'accept-encoding': 'gzip',
      'user-agent': this.options.userAgent ?? 'svc-list-compiler',
    };
    if (validators.etag !== null) headers['if-none-match'] = validators.etag;
    if (validators.lastModified !== null) headers['if-modified-since'] = validators.lastModified;
    const response = await this.follow(url, headers, signal);
    const { statusCode } = response;
    if (statusCode === 304) {
      await response.body.dump();
      return { status: 'not_modified', httpStatus: statusCode };
    }
    if (statusCode < 200 || statusCode >= 300) {
      await response.body.dump().catch(() => undefined);
      const after =
        statusCode === 429 || statusCode === 503
          ? retryAfterMs(response.headers['retry-after'], Date.now())
          : undefined;
      const message = `the source answered HTTP ${statusCode}`;
      throw after === undefined
        ? new SourceFetchError('http_status', message, statusCode)
        : new RetryLater(message, statusCode, after);
    }
    const declared = Number(response.headers['content-length']);
    const gzipped = headerValue(response.headers['content-encoding'])?.toLowerCase() === 'gzip';
    if (!gzipped && Number.isFinite(declared) && declared > this.options.maxBytes) {
      response.body.destroy();
      throw new SourceFetchError(
        'too_large',
        `the source is ${declared} bytes, more than ${this.options.maxBytes}`,
        statusCode,
      );
    }
    const body: AsyncIterable<Uint8Array> = gzipped ? response.body.pipe(createGunzip()) : response.body;
    const result = await consume(this.capped(body, signal, () => response.body.destroy()));
    return {
      status: 'fetched',
      httpStatus: statusCode,
      validators: {
        etag: headerValue(response.headers.etag),
        lastModified: headerValue(response.headers['last-modified']),
      },
      result,
    };
  }

  /**
   * The answer to a GET of `url`, following up to {@link MAX_REDIRECTIONS} redirects; each redirect's target
   * is checked (https, a public address) unless `allowPrivate`, and refused as `forbidden_target`.
   */
  private async follow(
    url: string,
    headers: Record<string, string>,
    signal: AbortSignal,
  ): Promise<Dispatcher.ResponseData> {
    let target = url;
    let dispatcher = this.dispatcher;
    for (let redirects = 0; ; redirects += 1) {
      let response: Dispatcher.ResponseData;
      try {
        response = await request(target, { method: 'GET', headers, signal, dispatcher });
      } catch (error) {
        throw transportError(error, signal, target);
      }
      const location = headerValue(response.headers.location);
      if (!REDIRECT_STATUSES.has(response.statusCode) || location === null) return response;
      await response.body.dump().catch(() => undefined);
      if (redirects >= MAX_REDIRECTIONS)
        throw new SourceFetchError('network', `the source redirected more than ${MAX_REDIRECTIONS} times`);
      let next: URL;
      try {
        next = new URL(location, target);
      } catch (error) {
        throw new SourceFetchError('network', 'the source redirected to an invalid address', null, {
          cause: error,
        });
      }
      const refused = this.options.allowPrivate === true ? null : refusedTarget(next);
      if (refused !== null) throw forbiddenRedirect(next, refused);
      target = next.href;
      dispatcher = this.redirectDispatcher;
    }
  }

  /** The body with its size capped and its read failures as {@link SourceFetchError}s. */
  private async *capped(
    body: AsyncIterable<Uint8Array>,
    signal: AbortSignal,
    stop: () => void,
  ): AsyncGenerator<Uint8Array> {
    let size = 0;
    try {
      for await (const chunk of body) {
        size += chunk.length;
        if (size > this.options.maxBytes) {
          stop();
          throw new SourceFetchError('too_large', `the source is larger than ${this.options.maxBytes} bytes`);
        }
        yield chunk;
      }
    } catch (error) {
      if (error instanceof SourceFetchError) throw error;
      if (error instanceof Error && 'code' in error && error.code === 'Z_DATA_ERROR')
        throw new SourceFetchError('unreadable', 'the source’s gzip body is corrupt', null, { cause: error });
      throw transportError(error, signal);
    }
  }
}

/** A 429 or 503 with a Retry-After: retried after the time it asks for. */
class RetryLater extends SourceFetchError {
  constructor(
    message: string,
    httpStatus: number,
    readonly afterMs: number,
  ) {
    super('http_status', message, httpStatus);
  }
}

/** The words of every refused redirect: where it led, why, and what allows it. */
function forbiddenRedirect(target: URL, why: string, cause?: unknown): SourceFetchError {
  return new SourceFetchError(
    'forbidden_target',
    `refused the redirect to ${target.origin}: ${why} (SVC_OUTBOUND_ALLOW_PRIVATE=true allows private and http targets)`,
    null,
    cause === undefined ? undefined : { cause },
  );
}

function transportError(error: unknown, signal: AbortSignal, target?: string): SourceFetchError {
  const forbidden = forbiddenTargetIn(error);
  if (forbidden !== undefined && target !== undefined)
    return forbiddenRedirect(new URL(target), forbidden.message, error);
  if (signal.aborted)
    return new SourceFetchError('timeout', 'the source did not answer in time', null, { cause: error });
  const message = error instanceof Error ? error.message : String(error);
  return new SourceFetchError('network', `the source could not be reached: ${message}`, null, {
    cause: error,
  });
}
