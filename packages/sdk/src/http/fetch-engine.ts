import { NetworkError } from '../errors.js';
import type { EngineRequest, EngineResponse, HttpEngine } from './http-engine.js';

/** How a fetch-based client sends credentials: `include` lets a browser keep and send the session cookie. */
export type FetchCredentials = 'include' | 'same-origin' | 'omit';

/** Settings of the fetch engine. */
export interface FetchEngineOptions {
  /** The fetch to call; default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Passed as `credentials` on every request (browsers only heed it); default `same-origin`, fetch's own. */
  credentials?: FetchCredentials;
}

/**
 * The engine's own time-out (no headers, or a silent body, for too long). A NetworkError, like undici's body
 * time-out reaching a stream reader, so a live stream reconnects after it.
 */
class FetchTimeoutError extends NetworkError {
  constructor(what: string, ms: number) {
    super(`${what} took longer than ${ms} ms`, { cause: undefined });
    this.name = 'FetchTimeoutError';
  }
}

/** A timer that aborts `controller` when it fires, re-armed for each wait. */
class Deadline {
  fired = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly controller: AbortController,
    private readonly ms: number,
  ) {}

  arm(): void {
    this.disarm();
    this.timer = setTimeout(() => {
      this.fired = true;
      this.controller.abort();
    }, this.ms);
  }

  disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/**
 * Reads a web stream chunk by chunk with a reader (browsers without async-iterable streams included): a
 * silence longer than the deadline times out, and any other failure of the read is a NetworkError, so callers
 * see the same errors as with undici.
 */
async function* chunksOf(
  stream: ReadableStream<Uint8Array> | null,
  idle: Deadline,
  ms: number,
): AsyncGenerator<Uint8Array> {
  if (stream === null) return;
  const reader = stream.getReader();
  try {
    for (;;) {
      idle.arm();
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (cause) {
        if (idle.fired) throw new FetchTimeoutError('reading the answer', ms);
        throw new NetworkError(
          `reading the answer failed: ${cause instanceof Error ? cause.message : 'error'}`,
          {
            cause,
          },
        );
      } finally {
        idle.disarm();
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    reader.releaseLock();
  }
}

async function textOf(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/**
 * The standard-fetch engine: browsers, Deno, Bun, or Node with `transport: 'fetch'`. Time-outs are timers
 * aborting the request, since fetch has none of its own. Browsers hide Set-Cookie and forbid the Cookie and
 * Origin headers: there the browser keeps the session cookie itself (`credentials: 'include'` across
 * origins) and sends the page's Origin.
 */
export function fetchEngine(options: FetchEngineOptions = {}): HttpEngine {
  return {
    async send(call: EngineRequest): Promise<EngineResponse> {
      const fetchFunction = options.fetch ?? globalThis.fetch;
      const controller = new AbortController();
      const forwardAbort = () => controller.abort(call.signal.reason);
      if (call.signal.aborted) forwardAbort();
      else call.signal.addEventListener('abort', forwardAbort, { once: true });
      const headersDeadline = new Deadline(controller, call.headersTimeoutMs);
      headersDeadline.arm();
      let answer: Response;
      try {
        answer = await fetchFunction(call.url, {
          method: call.method,
          headers: call.headers,
          body: call.body,
          signal: controller.signal,
          ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
        });
      } catch (cause) {
        call.signal.removeEventListener('abort', forwardAbort);
        if (headersDeadline.fired)
          throw new FetchTimeoutError('waiting for the answer', call.headersTimeoutMs);
        throw cause;
      } finally {
        headersDeadline.disarm();
      }
      const headers: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        headers[name.toLowerCase()] = value;
      });
      const body = chunksOf(answer.body, new Deadline(controller, call.bodyTimeoutMs), call.bodyTimeoutMs);
      return {
        status: answer.status,
        headers,
        // Node's fetch offers them apart; browsers never show them to scripts.
        setCookie: typeof answer.headers.getSetCookie === 'function' ? answer.headers.getSetCookie() : [],
        body,
        text: () => textOf(body),
      };
    },
    isTimeout: (error) => error instanceof FetchTimeoutError,
  };
}
