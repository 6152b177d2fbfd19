import { randomUUID } from 'node:crypto';
import {
  DomainError,
  NODE_LINK_HEARTBEAT_SECONDS,
  type NodeQueryResult,
  type ServerToNodeMessage,
} from '@svc/domain';
import type { WebSocket } from 'ws';

/** A relayed query waiting for its node's answer. */
interface PendingQuery {
  resolve(result: NodeQueryResult): void;
  reject(error: DomainError): void;
  timer: NodeJS.Timeout;
}

/** Most queries a node has in flight at once (spec 8); one more is 503 node_busy. */
const NODE_QUERY_CONCURRENCY = 4;
/** How long a node has to answer a relayed query (spec 8); later is 504 node_timeout. */
export const NODE_QUERY_TIMEOUT_MS = 10_000;

/** One open link of an enrolled node, after its hello. */
export class NodeLink {
  /** Reported by the node's hello. */
  version = '';
  shapes: ReadonlySet<string> = new Set();
  /** True once the node said hello: only then does it count as connected and receive queries. */
  ready = false;
  /** Monotonic time of the last message from the node, for the silence check. */
  lastHeardMs = performance.now();
  /** Names this link in the database (nodes.link_id, claims of held rows), across API servers. */
  readonly linkId = randomUUID();
  private readonly pending = new Map<string, PendingQuery>();
  private nextQuery = 0;

  constructor(
    readonly socket: WebSocket,
    readonly nodeId: string,
    readonly orgId: string,
    readonly profileId: string,
  ) {}

  send(message: ServerToNodeMessage): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(message));
  }

  /** True while the socket is open. */
  get open(): boolean {
    return this.socket.readyState === this.socket.OPEN;
  }

  get inFlight(): number {
    return this.pending.size;
  }

  /** True when the node has been silent for three heartbeat intervals. */
  silentAt(nowMs: number): boolean {
    return nowMs - this.lastHeardMs > 3 * NODE_LINK_HEARTBEAT_SECONDS * 1000;
  }

  /**
   * Sends a query and waits for its answer: 503 node_busy beyond four in flight, 501 shape_unsupported for a
   * shape the node did not report, 504 node_timeout after 10 s (the node is told to cancel).
   */
  query(
    shape: string,
    params: Record<string, unknown>,
    timeoutMs = NODE_QUERY_TIMEOUT_MS,
  ): Promise<NodeQueryResult> {
    if (!this.shapes.has(shape)) {
      return Promise.reject(
        new DomainError(
          'shape_unsupported',
          `This profile’s node (version ${this.version}) does not answer ${shape}.`,
        ),
      );
    }
    if (this.pending.size >= NODE_QUERY_CONCURRENCY) {
      return Promise.reject(
        new DomainError(
          'node_busy',
          'This profile’s node has too many queries in flight; try again shortly.',
          {
            retryAfter: 1,
          },
        ),
      );
    }
    this.nextQuery += 1;
    const id = `q${this.nextQuery}`;
    return new Promise<NodeQueryResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.send({ type: 'cancel', id });
        reject(new DomainError('node_timeout', 'This profile’s node did not answer within 10 s.'));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.send({ type: 'query', id, shape, params, timeout_ms: timeoutMs });
    });
  }

  /** The node's answer to query `id` (late or unknown answers are dropped). */
  answer(id: string, result: NodeQueryResult): void {
    const pending = this.pending.get(id);
    if (pending === undefined) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    pending.resolve(result);
  }

  /** The node's failure of query `id`: shape_unsupported as the node said, anything else 502 node_error. */
  fail(id: string, code: string, detail: string | undefined): void {
    const pending = this.pending.get(id);
    if (pending === undefined) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    pending.reject(
      code === 'shape_unsupported'
        ? new DomainError('shape_unsupported', 'This profile’s node does not answer this shape.')
        : new DomainError(
            'node_error',
            `This profile’s node failed the query${detail === undefined ? '' : `: ${detail}`}.`,
          ),
    );
  }

  /** The link dropped: every query in flight fails with 502 node_error. */
  dropped(): void {
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(new DomainError('node_error', 'This profile’s node disconnected while answering.'));
      this.pending.delete(id);
    }
  }
}
