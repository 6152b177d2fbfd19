import { deviceOfDohPath } from '@svc/node-agent-kit';
import type { QueryResolver } from '../resolving/dns-resolver.js';

const DNS_MESSAGE = 'application/dns-message';
/** Largest DNS message (RFC 8484 4.1 carries one message; its length field is 16 bits). */
const MAX_MESSAGE = 65_535;
/** The path DoH is asked on; `/dns-query/<device>` names a device (issue 38). */
export const DOH_PATH = '/dns-query';

/**
 * What a DoH exchange reads of a request: an HTTP/1.1 request (the reference node, behind a proxy) and an
 * HTTP/2 one (svc-node, over TLS) alike.
 */
export interface DohRequest extends AsyncIterable<unknown> {
  method?: string | undefined;
  url?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  socket: { remoteAddress?: string | undefined };
}

/** What a DoH exchange writes of a response. */
export interface DohResponse {
  readonly headersSent: boolean;
  setHeader(name: string, value: string): unknown;
  writeHead(status: number, headers: Record<string, string | number>): unknown;
  end(body: Buffer): unknown;
}

/**
 * Answers one DoH request (RFC 8484): GET with the message base64url-encoded in `dns`, or POST with the message
 * as an `application/dns-message` body, on {@link DOH_PATH} or a device's path under it. Each answer says how
 * long HTTP caches may keep it (`Cache-Control: max-age`, its smallest TTL, RFC 8484 5.1). A failure inside
 * the resolver is a 500 when nothing was sent yet.
 */
export async function answerDohRequest(
  resolver: QueryResolver,
  request: DohRequest,
  response: DohResponse,
): Promise<void> {
  try {
    await handle(resolver, request, response);
  } catch (error) {
    if (!response.headersSent)
      respond(
        response,
        500,
        'text/plain',
        Buffer.from(error instanceof Error ? error.message : String(error)),
      );
  }
}

async function handle(resolver: QueryResolver, request: DohRequest, response: DohResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://node');
  const device = deviceOfDohPath(url.pathname, DOH_PATH);
  if (url.pathname !== DOH_PATH && device === undefined)
    return respond(response, 404, 'text/plain', Buffer.from('not found'));
  let message: Buffer;
  if (request.method === 'GET') {
    const encoded = url.searchParams.get('dns');
    if (encoded === null || !/^[A-Za-z0-9_-]+$/.test(encoded))
      return respond(response, 400, 'text/plain', Buffer.from('dns must be base64url without padding'));
    message = Buffer.from(encoded, 'base64url');
  } else if (request.method === 'POST') {
    if (request.headers['content-type'] !== DNS_MESSAGE)
      return respond(response, 415, 'text/plain', Buffer.from(`the body must be ${DNS_MESSAGE}`));
    const body = await readBody(request);
    if (body === null) return respond(response, 413, 'text/plain', Buffer.from('message too large'));
    message = body;
  } else {
    response.setHeader('allow', 'GET, POST');
    return respond(response, 405, 'text/plain', Buffer.from('use GET or POST'));
  }
  const answer = await resolver.resolve(message, {
    transport: 'doh',
    clientIp: request.socket.remoteAddress ?? '',
    device,
    overUdp: false,
  });
  if (answer === null) return respond(response, 400, 'text/plain', Buffer.from('not a DNS query'));
  response.setHeader('cache-control', `max-age=${answer.cacheSeconds}`);
  respond(response, 200, DNS_MESSAGE, answer.wire);
}

function respond(response: DohResponse, status: number, type: string, body: Buffer): void {
  response.writeHead(status, { 'content-type': type, 'content-length': body.length });
  response.end(body);
}

async function readBody(request: DohRequest): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    length += buffer.length;
    if (length > MAX_MESSAGE) return null;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
