import type { NodeProfileDocument } from '@svc/sdk';
import type { CredentialStore } from './credentials.js';
import type { HourlyTotals } from './hourly-totals.js';
import type { HeldLogRow } from './log-batches.js';
import type { NodeFilter } from './node-filter.js';
import type { OperatorFileMessage } from './profile-verification.js';

// What a NodeAgent is built from: where it connects, what answers relayed queries, and where it reports.

/** A query result as a node answers it (spec 2.11, without the fields the API fills in). */
export interface NodeQueryAnswer {
  columns: { name: string; type: string }[];
  rows: unknown[][];
  /** Ignored by the API; give `next_after` instead. */
  next_cursor: string | null;
  /** Position of the last row when a further page exists (`ts` Unix ms, `row_id`); the API seals it. */
  next_after?: { ts: number; row_id: string } | null;
  partial: boolean;
  partial_reason?: 'timeout' | 'overload';
  /**
   * For tail and search: the rows as recorded (docs/node-link-protocol.md, `NodeLogRow`); the API then builds
   * `columns` and `rows` itself, derived columns included.
   */
  log_rows?: Record<string, unknown>[];
}

/** Thrown by a {@link QueryHandler} for a shape it does not answer: the API answers 501 shape_unsupported. */
export class UnsupportedShapeError extends Error {
  constructor(shape: string) {
    super(`this node does not answer ${shape}`);
    this.name = 'UnsupportedShapeError';
  }
}

/**
 * Answers relayed log and analytics queries from the node's own store. `signal` aborts when the API cancels
 * (it gave up after its 10 s time-out). Any other error becomes 502 node_error for the asker.
 */
export interface QueryHandler {
  answer(shape: string, params: Record<string, unknown>, signal: AbortSignal): Promise<NodeQueryAnswer>;
}

/** Where the agent reports what it refused and why. */
export interface NodeAgentLogger {
  warn(message: string, details: Record<string, unknown>): void;
}

/** Options of a `NodeAgent`. */
export interface NodeAgentOptions {
  baseUrl: string;
  store: CredentialStore;
  /** The node software's version, reported in the link's hello. */
  version: string;
  /** The query shapes `handler` answers. */
  shapes: string[];
  handler: QueryHandler;
  /** Receives every profile document that verified, to apply it. */
  onProfile?: (document: NodeProfileDocument) => void | Promise<void>;
  /**
   * Receives a document that is not applied: its signature did not verify ({@link ProfileSignatureError}), or
   * it is another profile's or older than the one applied ({@link ProfileDocumentRefusedError}).
   */
  onRejectedProfile?: (error: Error) => void;
  /**
   * Told why a profile document was refused, and why the server closed the link when it blames the node; the
   * default writes a JSON line to stderr.
   */
  logger?: NodeAgentLogger;
  /** Called once when the node finds itself revoked; the agent has stopped. */
  onRevoked?: () => void;
  /** Reconnection backoff: first delay and cap in milliseconds (defaults 500 and 30 000), with jitter. */
  backoff?: { initialMs?: number; maxMs?: number };
  /**
   * Receives the rows the cloud answered for the profile while the node was offline (spec 2.3
   * node_queue_hours), oldest first, one message at a time: when the promise resolves the rows are
   * acknowledged and the cloud deletes them; when it rejects they are sent again on the next link. Without
   * it nothing is acknowledged (the cloud keeps them until node_queue_hours pass).
   */
  onHeldLogs?: (rows: HeldLogRow[]) => void | Promise<void>;
  /**
   * What the node decides queries with (compiled lists, operator files): every verified profile document and
   * operator file is applied to it, lists are downloaded as manifests change, and when the API cannot be
   * reached at start the node starts from the filter's last good state instead of failing.
   */
  filter?: NodeFilter;
  /** Told why lists could not be brought up to date (the lists in force stay; the next change retries). */
  onListsError?: (error: Error) => void;
  /** Receives each operator file whose signature verified, after the filter applied it; then it is acknowledged. */
  onOperatorFile?: (file: OperatorFileMessage) => void | Promise<void>;
  /** The node's hourly totals, sent over the link every `totalsIntervalMs` and after each welcome. */
  totals?: HourlyTotals;
  /** Milliseconds between hourly totals messages (default 60 000). */
  totalsIntervalMs?: number;
}
