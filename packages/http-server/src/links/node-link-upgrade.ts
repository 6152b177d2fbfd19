import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type AuthenticatedNode, DomainError } from '@svc/domain';
import type { Logger } from 'pino';
import type { WebSocket, WebSocketServer } from 'ws';
import type { Authenticator, Principal } from '../http/principal.js';
import { problemFor, problemFromError } from '../problems/problem-document.js';

/** Path of the link (ROUTES.md). */
const NODE_LINK_PATH = '/v1/nodes/self/link';

/** What turning an HTTP upgrade into a link needs. */
export interface LinkUpgradeDependencies {
  authenticator: Authenticator;
  problemBase: string;
  logger: Logger;
  /** The WebSocket server that completes the handshake. */
  webSocketServer(): Promise<WebSocketServer>;
  /** Takes the link of an authenticated node. */
  accept(socket: WebSocket, node: AuthenticatedNode['node']): void;
}

/**
 * Handles an HTTP upgrade: the link path with a live node token becomes a link; anything else is refused with a
 * problem document (404 for another path, 401 without a node token).
 */
export function upgradeToNodeLink(
  deps: LinkUpgradeDependencies,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
): void {
  const context = { requestId: randomUUID(), problemBase: deps.problemBase };
  const path = new URL(req.url ?? '/', 'http://link').pathname;
  if (path !== NODE_LINK_PATH) {
    refuse(socket, problemFor('not_found', 'No WebSocket is served here.', context));
    return;
  }
  deps.authenticator
    .authenticate({ headers: req.headers, clientIp: req.socket.remoteAddress ?? '' })
    .then(async (principal: Principal | null) => {
      const node = principal?.node?.node;
      if (principal?.kind !== 'node' || node === undefined) {
        throw new DomainError(
          'unauthenticated',
          'The link takes a node token (Authorization: Bearer svcnode_…).',
        );
      }
      const server = await deps.webSocketServer();
      server.handleUpgrade(req, socket, head, (ws) => deps.accept(ws, node));
    })
    .catch((error: unknown) => {
      const problem = problemFromError(error, context);
      if (problem.status >= 500) deps.logger.error({ err: error }, 'node link upgrade failed');
      refuse(socket, problem);
    });
}

/** Answers the upgrade request with the problem and closes the connection. */
function refuse(socket: Duplex, problem: ReturnType<typeof problemFor>): void {
  const body = JSON.stringify(problem.body);
  const reason = problem.body.title;
  socket.end(
    `HTTP/1.1 ${problem.status} ${reason}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${problem.body.request_id}\r\nConnection: close\r\n\r\n${body}`,
  );
}
