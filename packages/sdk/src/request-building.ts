import type { ApiRequest, ClientOptions } from './transport.types.js';

// The parts of a call's HTTP request that do not change from one attempt to the next.

/** The call's address: the path under the base URL, with the query's values (arrays repeat the name). */
export function urlOf(baseUrl: string, path: string, query: ApiRequest['query']): string {
  const url = new URL(path, `${baseUrl.replace(/\/+$/, '')}/`);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
  }
  return url.toString();
}

/**
 * The headers of a call (the session cookie is added per attempt): the token unless the call is anonymous,
 * Origin when configured, JSON, and the Idempotency-Key of a creating POST, one key for all its retries.
 */
export function callHeaders(call: ApiRequest, options: ClientOptions): Record<string, string> {
  const headers: Record<string, string> = {
    accept: 'application/json, application/problem+json',
    ...call.headers,
  };
  if (options.token !== undefined && call.anonymous !== true)
    headers.authorization = `Bearer ${options.token}`;
  if (options.origin !== undefined) headers.origin = options.origin;
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  if (call.idempotent === true || call.idempotencyKey !== undefined) {
    // The Web Crypto global (Node 20+, browsers), so that key generation needs no Node built-in.
    headers['idempotency-key'] = call.idempotencyKey ?? globalThis.crypto.randomUUID();
  }
  return headers;
}
