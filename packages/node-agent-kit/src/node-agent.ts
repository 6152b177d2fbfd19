import { randomUUID } from 'node:crypto';
import { createClient, type NodeProfileDocument, type SvcClient } from '@svc/sdk';
import WebSocket from 'ws';
import type { NodeCredentials } from './credentials.js';
import type { HourTotals } from './hourly-totals.js';
import { LinkPacer, paceOf, type SendLane } from './link-pacer.js';
import {
  emptyLogRowMetrics,
  type HeldLogRow,
  LogBatchRejectedError,
  type LogBatchRowError,
  type LogRowMetrics,
  logBatchMessage,
  type PendingLogBatch,
  type RefusedLogRow,
  splitLogBatch,
} from './log-batches.js';
import { type NodeAgentLogger, type NodeAgentOptions, UnsupportedShapeError } from './node-agent.options.js';
import {
  checkProfileDocument,
  type OperatorFileMessage,
  ProfileDocumentRefusedError,
  ProfileSignatureError,
  verifyOperatorFile,
} from './profile-verification.js';

/** Protocol version of the link this kit speaks (docs/node-link-protocol.md). */
export const LINK_PROTOCOL_VERSION = 1;
/** Close code of a revoked node: the agent stops instead of reconnecting. */
const REVOKED_CLOSE_CODE = 4001;
/** How long before a batch answered `batch_in_progress` is sent again. */
const BATCH_IN_PROGRESS_RETRY_MS = 1_000;
/** Close codes blaming the node: a message too big (1009), a protocol error (4003), over budget (4005). */
const FAULT_CLOSE_CODES = new Set([1009, 4003, 4005]);
/** Largest message of protocol version 1, for a server whose welcome does not say (older servers took more). */
const DEFAULT_MAX_MESSAGE_BYTES = 1_048_576;

/** One JSON line on stderr, for an agent given no logger. */
const STDERR_LOGGER: NodeAgentLogger = {
  warn: (message, details) => {
    process.stderr.write(`${JSON.stringify({ level: 'warn', msg: message, ...details })}\n`);
  },
};

interface ServerMessage {
  type: string;
  [field: string]: unknown;
}

/**
 * A self-hosted node's connection to the API: keeps the link up with backoff, fetches and verifies the signed
 * profile document on start and on every `profile_changed`, answers relayed queries through a handler, sends
 * log batches, and rotates its token, persisting each new one before using it.
 */
export class NodeAgent {
  private credentials: NodeCredentials | null = null;
  private socket: WebSocket | null = null;
  private ready = false;
  private stopped = true;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private appliedVersion: number | null = null;
  private appliedSequence: number | null = null;
  /** The digest of the lists manifest whose lists are all in force; null until they are. */
  private appliedLists: string | null = null;
  private totalsTimer: NodeJS.Timeout | undefined;
  /** Hourly totals sent and not settled yet, by message id. */
  private readonly sentTotals = new Map<string, HourTotals[]>();
  private readonly running = new Map<string, AbortController>();
  private readonly batches = new Map<string, PendingLogBatch>();
  private readonly logRows = emptyLogRowMetrics();
  /** Keeps sends within the budget the welcome announced, answers ahead of log batches. */
  private readonly pacer = new LinkPacer((text) => this.write(text));
  private maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
  /** Held rows are handed over one message at a time, in order. */
  private heldQueue: Promise<void> = Promise.resolve();
  /** Profile refreshes run one at a time, so that a slower fetch never applies after a newer one. */
  private profileQueue: Promise<unknown> = Promise.resolve();
  /** Credential saves run one at a time (a file store writes aside, then renames). */
  private saving: Promise<unknown> = Promise.resolve();
  private welcomed: (() => void) | undefined;

  constructor(private readonly options: NodeAgentOptions) {}

  /** True while the link is open and welcomed. */
  get connected(): boolean {
    return this.ready;
  }

  /** The node token in force (list downloads authenticate with it); it changes as the agent rotates it. */
  get nodeToken(): string {
    return this.current().nodeToken;
  }

  /** What the agent counted since it was made, for the node's metrics (a copy). */
  get metrics(): { logRows: LogRowMetrics } {
    return { logRows: structuredClone(this.logRows) };
  }

  /** The version of the last profile document applied, or null before the first. */
  get profileVersion(): number | null {
    return this.appliedVersion;
  }

  /**
   * Loads the credentials, applies the current profile and opens the link; resolves once welcomed. With a
   * filter that holds a last good state, an API that cannot be reached does not stop the start: the node
   * decides with that state and keeps trying to link.
   */
  async start(): Promise<void> {
    this.credentials = await this.options.store.load();
    if (this.credentials === null) throw new Error('no node credentials: enrol first (enrolNode)');
    this.appliedVersion = this.credentials.appliedProfileVersion ?? null;
    this.appliedSequence = this.credentials.appliedProfileSequence ?? null;
    this.stopped = false;
    const offlineStart = (await this.options.filter?.loadLastGood()) === true;
    try {
      await this.refreshProfile();
    } catch (error) {
      const refused = error instanceof ProfileSignatureError || error instanceof ProfileDocumentRefusedError;
      if (!offlineStart || refused) throw error;
      this.log().warn('the API cannot be reached: deciding with the last good state', {
        error: error instanceof Error ? error.message : String(error),
      });
      this.connect();
      this.startTotals();
      return;
    }
    await new Promise<void>((resolve) => {
      this.welcomed = resolve;
      this.connect();
    });
    this.startTotals();
  }

  /** Closes the link and stops reconnecting. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.totalsTimer);
    this.totalsTimer = undefined;
    this.stopHeartbeat();
    for (const controller of this.running.values()) controller.abort();
    this.running.clear();
    for (const batch of this.batches.values()) batch.reject(new Error('the agent stopped'));
    this.batches.clear();
    this.pacer.clear();
    const socket = this.socket;
    this.socket = null;
    this.ready = false;
    if (socket !== null && socket.readyState !== WebSocket.CLOSED) {
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.close(1000, 'node stopping');
      });
    }
  }

  /** The API client of the current token. */
  client(): SvcClient {
    return createClient({ baseUrl: this.options.baseUrl, token: this.current().nodeToken });
  }

  /**
   * Fetches the profile document, verifies its signature against the enrolment keys, checks that it is the
   * enrolled profile's and not older than the one applied, and hands it to `onProfile`; its version is then
   * persisted with the credentials. A refused document is logged with the reason, passed to
   * `onRejectedProfile`, and the error thrown.
   */
  refreshProfile(): Promise<NodeProfileDocument> {
    const refreshed = this.profileQueue.then(() => this.applyCurrentProfile());
    this.profileQueue = refreshed.catch(() => undefined);
    return refreshed;
  }

  private async applyCurrentProfile(): Promise<NodeProfileDocument> {
    const document = await this.client().nodes.self.profile();
    const credentials = this.current();
    try {
      checkProfileDocument(document, credentials.profileKeys, {
        profileId: credentials.profileId,
        version: this.appliedVersion,
        sequence: this.appliedSequence,
      });
    } catch (error) {
      const refusal = error instanceof Error ? error : new Error(String(error));
      this.log().warn(`profile document refused: ${refusal.message}`, {
        reason: refusal instanceof ProfileDocumentRefusedError ? refusal.reason : 'signature',
        document_profile_id: document.id,
        document_version: document.version,
        profile_id: credentials.profileId,
        applied_version: this.appliedVersion,
        document_sequence: document.sequence,
        applied_sequence: this.appliedSequence,
      });
      this.options.onRejectedProfile?.(refusal);
      throw refusal;
    }
    const filter = this.options.filter;
    if (filter !== undefined) {
      try {
        await filter.applyProfile(document);
        this.appliedLists = document.lists.sha256;
      } catch (error) {
        // The document's rules apply; its lists stay as they were until the next change or welcome.
        this.appliedLists = null;
        this.options.onListsError?.(error instanceof Error ? error : new Error(String(error)));
      }
    } else this.appliedLists = document.lists.sha256;
    await this.options.onProfile?.(document);
    const sequence = document.sequence ?? this.appliedSequence;
    if (document.version !== this.appliedVersion || sequence !== this.appliedSequence) {
      this.appliedVersion = document.version;
      this.appliedSequence = sequence;
      this.credentials = {
        ...this.current(),
        appliedProfileVersion: document.version,
        ...(sequence === null ? {} : { appliedProfileSequence: sequence }),
      };
      await this.persist();
    }
    return document;
  }

  /** Sends the hourly totals the API has not acknowledged as they are now (each message at most 48 hours). */
  sendTotals(): void {
    const totals = this.options.totals;
    if (totals === undefined || !this.ready) return;
    const pending = totals.pending();
    if (pending.length === 0) return;
    const id = randomUUID();
    this.sentTotals.set(id, pending);
    this.send({ type: 'hourly_totals', id, run: totals.run, totals: pending }, 'bulk');
  }

  private startTotals(): void {
    if (this.options.totals === undefined || this.totalsTimer !== undefined) return;
    this.totalsTimer = setInterval(() => this.sendTotals(), this.options.totalsIntervalMs ?? 60_000);
    this.totalsTimer.unref();
  }

  /** Verifies, applies and acknowledges an operator file; a file that does not verify is dropped. */
  private async receiveOperatorFile(message: ServerMessage): Promise<void> {
    const file: OperatorFileMessage = {
      file: message.file === 'operator_sources' ? 'operator_sources' : 'operator_blocks',
      version: Number(message.version),
      document: (message.document ?? {}) as Record<string, unknown>,
      ...(typeof message.signature === 'string' ? { signature: message.signature } : {}),
      ...(typeof message.key_id === 'string' ? { key_id: message.key_id } : {}),
      ...(typeof message.public_key === 'string' ? { public_key: message.public_key } : {}),
    };
    if (this.options.filter === undefined && this.options.onOperatorFile === undefined) return;
    try {
      verifyOperatorFile(file, this.current().profileKeys);
    } catch (error) {
      const refusal = error instanceof Error ? error : new Error(String(error));
      this.log().warn(`operator file refused: ${refusal.message}`, {
        file: file.file,
        version: file.version,
      });
      this.options.onRejectedProfile?.(refusal);
      return;
    }
    await this.options.filter?.applyOperatorFile(file);
    await this.options.onOperatorFile?.(file);
    this.send({ type: 'operator_file_ack', file: file.file, version: file.version });
  }

  private log(): NodeAgentLogger {
    return this.options.logger ?? STDERR_LOGGER;
  }

  /** Saves the credentials as they are now, after any save in progress. */
  private persist(): Promise<void> {
    const saved = this.saving.then(() => this.options.store.save(this.current()));
    this.saving = saved.catch(() => undefined);
    return saved;
  }

  /**
   * Rotates the node token (POST /v1/nodes/self/token): the new token is persisted before anything uses it,
   * then one request made with it starts the old token's 600 s grace. The open link stays up.
   */
  async rotateToken(): Promise<void> {
    const rotated = await this.client().nodes.self.rotateToken();
    this.credentials = { ...this.current(), nodeToken: rotated.node_token };
    await this.persist();
    await this.client().nodes.self.get();
  }

  /**
   * Sends query log rows (`NodeLogRow`s) over the link; resolves once the API settled the batch with how many
   * rows the cloud keeps (0 unless the profile's destination is `both`; for a batch stored before under the
   * same id, the rows then stored). Rows the API refuses one by one (a bad field) are logged, counted in
   * {@link metrics} and settled: they are not sent again. Rejects with {@link LogBatchRejectedError} when the
   * batch is refused whole (a batch answered
   * `batch_in_progress` is asked about again a second later instead). A batch whose
   * acknowledgement the link lost is sent again with the same id after the next welcome, and the API stores
   * it once; pass `id` to retry a rejected batch yourself (ids are unique per node, at most 64 characters).
   *
   * A batch larger than one link message (the welcome's `max_message_bytes`) or than 10,000 rows is sent as
   * several messages ({@link splitLogBatch}), paced to the link's budget; it resolves with the rows kept of
   * all of them, or rejects with the first part refused (its `errors` numbering rows of `rows`, the other
   * parts settled as the API answered them). Sending it again with the same id stores each part once.
   */
  sendLogBatch(rows: Record<string, unknown>[], options: { id?: string } = {}): Promise<number> {
    if (!this.ready) return Promise.reject(new Error('the link is not connected'));
    const id = options.id ?? randomUUID();
    let parts: ReturnType<typeof splitLogBatch>;
    try {
      parts = splitLogBatch(id, rows, this.maxMessageBytes);
    } catch (error) {
      return Promise.reject(error);
    }
    const settled = parts.map(
      (part) =>
        new Promise<number>((resolve, reject) => {
          const batch: PendingLogBatch = {
            rows: part.rows,
            firstRow: part.firstRow,
            sent: false,
            resolve,
            reject: (error) =>
              reject(
                error instanceof LogBatchRejectedError && part.firstRow > 0
                  ? new LogBatchRejectedError(
                      error.batchId,
                      error.reason,
                      error.errors.map((rowError) => ({ ...rowError, row: rowError.row + part.firstRow })),
                    )
                  : error,
              ),
          };
          this.batches.set(part.id, batch);
          this.sendBatch(part.id, batch);
        }),
    );
    return Promise.all(settled).then((accepted) => accepted.reduce((total, count) => total + count, 0));
  }

  private current(): NodeCredentials {
    if (this.credentials === null) throw new Error('the agent has not started');
    return this.credentials;
  }

  private connect(): void {
    const url = this.client().nodes.self.linkUrl();
    const socket = new WebSocket(url, { headers: { authorization: `Bearer ${this.current().nodeToken}` } });
    this.socket = socket;
    socket.on('open', () => {
      this.send({
        type: 'hello',
        protocol: LINK_PROTOCOL_VERSION,
        version: this.options.version,
        shapes: this.options.shapes,
      });
    });
    socket.on('message', (data) => {
      // A failed profile refresh was reported to onRejectedProfile (or is retried on the next change); the
      // link itself stays up either way.
      this.onMessage(JSON.parse(data.toString()) as ServerMessage).catch(() => undefined);
    });
    socket.on('unexpected-response', (_request, response) => {
      socket.terminate();
      if (response.statusCode === 401) this.checkRevoked();
    });
    // Errors are followed by close, where reconnection is decided.
    socket.on('error', () => undefined);
    socket.on('close', (code, reason) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.ready = false;
      this.pacer.clear();
      // Closes that say this node broke the link's rules: worth an operator's look, the agent reconnects.
      if (FAULT_CLOSE_CODES.has(code))
        this.log().warn('the server closed the link for a fault of this node', {
          code,
          reason: reason.toString(),
        });
      this.stopHeartbeat();
      for (const controller of this.running.values()) controller.abort();
      this.running.clear();
      if (code === REVOKED_CLOSE_CODE) this.revoked();
      else this.scheduleReconnect();
    });
  }

  /** A refused upgrade: a revoked node stops; anything else is retried. */
  private checkRevoked(): void {
    this.client()
      .nodes.self.get()
      .then(
        () => this.scheduleReconnect(),
        (error: { code?: string }) =>
          error.code === 'node_revoked' ? this.revoked() : this.scheduleReconnect(),
      );
  }

  private revoked(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.options.onRevoked?.();
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    const initial = this.options.backoff?.initialMs ?? 500;
    const cap = this.options.backoff?.maxMs ?? 30_000;
    const delay = Math.min(cap, initial * 2 ** this.attempt) * (0.5 + Math.random() / 2);
    this.attempt += 1;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => {
      if (!this.stopped) this.connect();
    }, delay);
  }

  /** Queues a message for the open link; answers and acknowledgements go ahead of log batches. */
  private send(message: object, lane: SendLane = 'control'): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.pacer.send(JSON.stringify(message), lane);
  }

  private sendBatch(id: string, batch: PendingLogBatch): void {
    if (this.socket?.readyState !== WebSocket.OPEN) return;
    if (batch.sent) this.logRows.resent += batch.rows.length;
    else this.logRows.sent += batch.rows.length;
    batch.sent = true;
    this.pacer.send(logBatchMessage(id, batch.rows), 'bulk');
  }

  /**
   * Counts what the API answered of a batch, and logs each row it refused (field and reason, never the row):
   * those are settled, never sent again, as the same row would be refused again.
   */
  private countSettled(id: string, batch: PendingLogBatch | undefined, message: ServerMessage): void {
    if (message.outcome === 'rejected') {
      const reason = String(message.reason ?? 'rejected');
      this.logRows.rejectedBatches[reason] = (this.logRows.rejectedBatches[reason] ?? 0) + 1;
      return;
    }
    if (message.outcome === 'stored') this.logRows.accepted += Number(message.accepted) || 0;
    if (typeof message.truncated === 'number') this.logRows.truncated += message.truncated;
    const refused = Array.isArray(message.refused) ? (message.refused as RefusedLogRow[]) : [];
    this.logRows.refused += refused.length;
    for (const row of refused)
      this.log().warn('the API refused a log row; it is not sent again', {
        batch_id: id,
        row: row.index + (batch?.firstRow ?? 0),
        field: row.field,
        reason: row.reason,
      });
  }

  private write(text: string): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(text);
  }

  private stopHeartbeat(): void {
    clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = undefined;
  }

  /**
   * What the agent does with each type of server message; heartbeat_ack, error and types of later protocol
   * versions need nothing.
   */
  private readonly handlers: Record<string, (message: ServerMessage) => Promise<void> | void> = {
    welcome: (message) => this.welcome(message),
    lists_changed: () => this.refreshProfile().then(() => undefined),
    operator_file: (message) => this.receiveOperatorFile(message),
    hourly_totals_ack: (message) => this.totalsSettled(message),
    profile_changed: async (message) => {
      if (typeof message.version === 'number' && message.version !== this.appliedVersion) {
        await this.refreshProfile();
      }
    },
    query: (message) =>
      this.answer(String(message.id), String(message.shape), message.params as Record<string, unknown>),
    cancel: (message) => {
      this.running.get(String(message.id))?.abort();
      this.running.delete(String(message.id));
    },
    log_batch_ack: (message) => this.batchSettled(message),
    held_logs: (message) => this.receiveHeld(message),
  };

  private async onMessage(message: ServerMessage): Promise<void> {
    if (!Object.hasOwn(this.handlers, message.type)) return;
    await this.handlers[message.type]?.(message);
  }

  /** The link is up: pace and heartbeat as announced, resend what the last link lost, catch up the profile. */
  private async welcome(message: ServerMessage): Promise<void> {
    this.ready = true;
    this.attempt = 0;
    this.maxMessageBytes =
      typeof message.max_message_bytes === 'number' ? message.max_message_bytes : DEFAULT_MAX_MESSAGE_BYTES;
    this.pacer.setPace(paceOf(message.budget));
    const seconds = typeof message.heartbeat_s === 'number' ? message.heartbeat_s : 30;
    this.stopHeartbeat();
    this.heartbeatTimer = setInterval(() => this.send({ type: 'heartbeat' }), seconds * 1000);
    this.heartbeatTimer.unref();
    this.welcomed?.();
    this.welcomed = undefined;
    // Batches whose acknowledgement a dropped link lost: the API tells a resend apart by its id.
    for (const [id, batch] of this.batches) this.sendBatch(id, batch);
    // Totals sent on the dropped link are sent again: the API adds only what grew.
    this.sentTotals.clear();
    this.sendTotals();
    const listsChanged =
      typeof message.lists_sha256 === 'string' && message.lists_sha256 !== this.appliedLists;
    if (message.profile_version !== this.appliedVersion || listsChanged) await this.refreshProfile();
  }

  /** The API settled hourly totals: acknowledged ones are not sent again. */
  private totalsSettled(message: ServerMessage): void {
    const sent = this.sentTotals.get(String(message.id));
    this.sentTotals.delete(String(message.id));
    if (sent !== undefined && (message.outcome === 'stored' || message.outcome === 'not_kept'))
      this.options.totals?.acknowledge(sent);
  }

  /** The API answered a log batch: settle it, or ask again about one another copy of is being stored. */
  private batchSettled(message: ServerMessage): void {
    const id = String(message.id);
    const batch = this.batches.get(id);
    if (batch !== undefined && message.reason === 'batch_in_progress') {
      // Another copy is being stored (a resend raced the first send): ask again once it is settled.
      setTimeout(() => {
        if (this.batches.get(id) === batch) this.sendBatch(id, batch);
      }, BATCH_IN_PROGRESS_RETRY_MS).unref();
      return;
    }
    this.batches.delete(id);
    this.countSettled(id, batch, message);
    if (message.outcome === 'rejected') {
      const errors = Array.isArray(message.errors) ? (message.errors as LogBatchRowError[]) : [];
      batch?.reject(new LogBatchRejectedError(id, String(message.reason ?? 'rejected'), errors));
    } else batch?.resolve(Number(message.accepted));
  }

  /** Hands held rows to `onHeldLogs` in arrival order and acknowledges each message once it resolves. */
  private receiveHeld(message: ServerMessage): void {
    const handler = this.options.onHeldLogs;
    const held = Array.isArray(message.rows) ? (message.rows as { seq: string; row: HeldLogRow }[]) : [];
    const last = held.at(-1);
    if (handler === undefined || last === undefined) return;
    const socket = this.socket;
    this.heldQueue = this.heldQueue.then(async () => {
      try {
        await handler(held.map((entry) => entry.row));
      } catch {
        // Not acknowledged: the API sends these rows again on the next link.
        return;
      }
      // Only on the link that delivered them: a newer link gets them again from the API.
      if (this.socket === socket) this.send({ type: 'held_logs_ack', seq: last.seq });
    });
  }

  private async answer(id: string, shape: string, params: Record<string, unknown>): Promise<void> {
    const controller = new AbortController();
    this.running.set(id, controller);
    try {
      const result = await this.options.handler.answer(shape, params, controller.signal);
      if (controller.signal.aborted) return;
      const answer = { type: 'query_result', id, result };
      // A longer message would close the link (1009): the asker gets a failure instead, the link stays.
      if (Buffer.byteLength(JSON.stringify(answer)) > this.maxMessageBytes) {
        this.send({
          type: 'query_error',
          id,
          code: 'node_error',
          detail: `the answer is larger than a link message (${this.maxMessageBytes} bytes): ask for fewer rows`,
        });
      } else this.send(answer);
    } catch (error) {
      if (controller.signal.aborted) return;
      this.send(
        error instanceof UnsupportedShapeError
          ? { type: 'query_error', id, code: 'shape_unsupported', detail: error.message }
          : { type: 'query_error', id, code: 'node_error', detail: (error as Error).message },
      );
    } finally {
      this.running.delete(id);
    }
  }
}
