import { request } from 'undici';
import type { EngineRequest, EngineResponse, HttpEngine } from './http-engine.js';

/** undici's own time-out failures (headers or body too slow), which count as time-outs too. */
const UNDICI_TIMEOUTS = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/**
 * The Node engine, on undici's `request` (connection pooling, `dispatcher` for proxies and mock agents). Only
 * ever loaded with a dynamic import, and replaced by a stub in the browser build.
 */
export function undiciEngine(dispatcher: import('undici').Dispatcher | undefined): HttpEngine {
  return {
    async send(call: EngineRequest): Promise<EngineResponse> {
      const answer = await request(call.url, {
        method: call.method as import('undici').Dispatcher.HttpMethod,
        headers: call.headers,
        body: call.body,
        signal: call.signal,
        dispatcher,
        headersTimeout: call.headersTimeoutMs,
        bodyTimeout: call.bodyTimeoutMs,
      });
      const setCookie = answer.headers['set-cookie'];
      return {
        status: answer.statusCode,
        headers: flatten(answer.headers),
        setCookie: Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie],
        body: answer.body,
        text: () => answer.body.text(),
      };
    },
    isTimeout: (error) =>
      error instanceof Error && 'code' in error && UNDICI_TIMEOUTS.has(String(error.code)),
  };
}
