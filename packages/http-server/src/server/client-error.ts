import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { API_VERSION } from '@svc/domain';
import { problemFor } from '../problems/problem-document.js';

/**
 * Answers a request that Node's HTTP parser refused before any route saw it (headers over the 16 KiB limit,
 * a malformed request line or header) with a 400 bad_request problem document (spec 4.1.1, 4.1.2, 7) instead
 * of Node's bare `431`/`400` without a body, then closes the connection: the parser cannot find where the
 * next request would start. A socket already gone (a reset) has nobody to answer.
 */
export function answerClientError(
  error: Error & { code?: string },
  socket: Duplex,
  problemBase: string,
): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const requestId = randomUUID();
  const detail =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'The request headers are larger than this server accepts.'
      : 'The request could not be parsed as HTTP.';
  const body = JSON.stringify(problemFor('bad_request', detail, { requestId, problemBase }).body);
  socket.end(
    [
      'HTTP/1.1 400 Bad Request',
      'Content-Type: application/problem+json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-Id: ${requestId}`,
      `X-Svc-Api-Version: ${API_VERSION}`,
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
}
