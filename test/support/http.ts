import { Agent, type Dispatcher, request } from 'undici';

/**
 * Idle connections are let go after 1 s, well before the server's 5 s keep-alive timeout: with undici's default
 * (4 s) a loaded machine could send a request on a connection the server was closing (ECONNRESET).
 */
const tests = new Agent({ keepAliveTimeout: 1_000, keepAliveMaxTimeout: 1_000 });

/** A raw HTTP answer: status, lower-cased headers and the parsed body (JSON when it is JSON). */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: unknown;
}

/** Sends one request with exactly the given headers and body, as a browser or a client would. */
export async function send(
  url: string,
  options: {
    method?: Dispatcher.HttpMethod;
    headers?: Record<string, string>;
    body?: string | object;
    /** Aborts the request (for example `AbortSignal.timeout(ms)`, to bound a wait). */
    signal?: AbortSignal;
  } = {},
): Promise<RawAnswer> {
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string'
        ? options.body
        : JSON.stringify(options.body);
  const headers = {
    ...(typeof options.body === 'object' ? { 'content-type': 'application/json' } : {}),
    ...options.headers,
  };
  const answer = await request(url, {
    method: options.method ?? 'GET',
    headers,
    body,
    dispatcher: tests,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const text = await answer.body.text();
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  let json: unknown;
  // JSON and +json types, not JSON lines (application/x-ndjson), which is many documents.
  if (/[/+]json\b/.test(flat['content-type'] ?? '') && text.length > 0) json = JSON.parse(text);
  return { status: answer.statusCode, headers: flat, text, json };
}

/** The problem document of an answer, asserting its media type. */
export function problemOf(answer: RawAnswer): Record<string, unknown> {
  if (!(answer.headers['content-type'] ?? '').startsWith('application/problem+json')) {
    throw new Error(`expected a problem document, got ${answer.headers['content-type']}: ${answer.text}`);
  }
  return answer.json as Record<string, unknown>;
}
