import { NodeLinkCloseCodes } from '@svc/domain';
import type { Logger } from 'pino';
import type { RawData } from 'ws';
import { type LinkBudgetLimits, LinkBudgetMeter } from './link-budget-meter.js';
import type { NodeLink } from './node-link.js';

/** How long a new link has to say hello. */
const HELLO_TIMEOUT_MS = 10_000;
/** How long a link closed for its budget has to answer the close before it is cut. */
const OVER_BUDGET_GRACE_MS = 1_000;

/** The bytes of a received message, whichever form the WebSocket layer gave it in. */
function sizeOf(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((total, chunk) => total + chunk.length, 0);
  return data.byteLength;
}

/** Where a link's socket hands what it receives. */
export interface LinkSocketEvents {
  /** A text message within the budget. */
  text(link: NodeLink, text: string): Promise<void>;
  /** The socket closed with `code`. */
  closed(link: NodeLink, code: number): void;
}

/**
 * Watches a new link's socket: closes it when no hello came in time (4003) or when it spends more than its
 * budget (4005, then cut if the node ignores the close), answers binary messages `bad_request`, and hands text
 * messages and the close to `events`.
 */
export function watchLinkSocket(
  link: NodeLink,
  limits: LinkBudgetLimits,
  logger: Logger,
  events: LinkSocketEvents,
): void {
  const { socket, nodeId } = link;
  const helloTimer = setTimeout(() => {
    if (!link.ready) socket.close(NodeLinkCloseCodes.protocolError, 'hello expected');
  }, HELLO_TIMEOUT_MS);
  const budget = new LinkBudgetMeter(limits, performance.now());
  let overBudget = false;
  socket.on('message', (data, isBinary) => {
    if (overBudget) return;
    link.lastHeardMs = performance.now();
    if (!budget.spend(sizeOf(data), link.lastHeardMs)) {
      overBudget = true;
      logger.warn({ nodeId, budget: limits }, 'node link over its budget: closed');
      socket.close(NodeLinkCloseCodes.overBudget, 'over budget');
      // A flood that ignores the close frame is cut instead of read for the 30 s the handshake may take.
      setTimeout(() => socket.terminate(), OVER_BUDGET_GRACE_MS).unref();
      return;
    }
    if (isBinary) {
      link.send({ type: 'error', code: 'bad_request', detail: 'messages are JSON text' });
      return;
    }
    events.text(link, data.toString()).catch((error: unknown) => {
      logger.error({ err: error, nodeId }, 'node link message failed');
    });
  });
  socket.on('close', (code) => {
    clearTimeout(helloTimer);
    events.closed(link, code);
  });
  socket.on('error', (error) => logger.warn({ err: error, nodeId }, 'node link error'));
}
