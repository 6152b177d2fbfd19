import { randomUUID } from 'node:crypto';
import { createClient, type NodeProfileDocument, type SvcClient } from '@svc/sdk';
import { AgentCredentials } from './agent-credentials.js';
import { AgentLink, type ServerMessage } from './agent-link.js';
import { HeldLogReceipt } from './held-log-receipt.js';
import { LogBatchOutbox } from './log-batch-outbox.js';
import type { LogBatchRejectedError, LogRowMetrics, splitLogBatch } from './log-batches.js';
import type { NodeAgentLogger, NodeAgentOptions } from './node-agent.options.js';
import { receiveOperatorFile } from './operator-file-receipt.js';
import { ProfileApplication } from './profile-application.js';
import { ProfileDocumentRefusedError, ProfileSignatureError } from './profile-verification.js';
import { RelayedQueries } from './relayed-queries.js';
import { TotalsReporter } from './totals-reporter.js';

/** Protocol version of the link this kit speaks (docs/node-link-protocol.md). */
export const LINK_PROTOCOL_VERSION = 1;

/** One JSON line on stderr, for an agent given no logger. */
const STDERR_LOGGER: NodeAgentLogger = {
  warn: (message, details) => {
    process.stderr.write(`${JSON.stringify({ level: 'warn', msg: message, ...details })}\n`);
  },
};

/**
 * A self-hosted node's connection to the API: keeps the link up with backoff, fetches and verifies the signed
 * profile document on start and on every `profile_changed`, answers relayed queries through a handler, sends
 * log batches, and rotates its token, persisting each new one before using it.
 *
 * Each part has its own module: the link ({@link AgentLink}), profile documents ({@link ProfileApplication}),
 * log batches ({@link LogBatchOutbox}), relayed queries ({@link RelayedQueries}), hourly totals
 * ({@link TotalsReporter}) and held rows ({@link HeldLogReceipt}); the agent routes each server message to one
 * of them (`handlers`).
 */
export class NodeAgent {
  private readonly credentials: AgentCredentials;
  private readonly link: AgentLink;
  private readonly profile: ProfileApplication;
  private readonly outbox: LogBatchOutbox;
  private readonly queries: RelayedQueries;
  private readonly totals: TotalsReporter;
  private readonly held: HeldLogReceipt;
  private readonly logger: NodeAgentLogger;
  private welcomed: (() => void) | undefined;

  constructor(private readonly options: NodeAgentOptions) {
    this.logger = options.logger ?? STDERR_LOGGER;
    this.credentials = new AgentCredentials(options.store);
    this.link = new AgentLink({
      backoff: options.backoff,
      logger: this.logger,
      target: () => ({ url: this.client().nodes.self.linkUrl(), token: this.nodeToken }),
      hello: () => ({
        type: 'hello',
        protocol: LINK_PROTOCOL_VERSION,
        version: options.version,
        shapes: options.shapes,
      }),
      onMessage: (message) => this.onMessage(message),
      onDropped: () => this.queries.abortAll(),
      isRevoked: () =>
        this.client()
          .nodes.self.get()
          .then(
            () => false,
            (error: { code?: string }) => error.code === 'node_revoked',
          ),
      onRevoked: () => options.onRevoked?.(),
    });
    this.profile = new ProfileApplication({
      options,
      credentials: this.credentials,
      logger: this.logger,
      fetchDocument: () => this.client().nodes.self.profile(),
    });
    this.outbox = new LogBatchOutbox(this.link, this.logger);
    this.queries = new RelayedQueries(options.handler, this.link);
    this.totals = new TotalsReporter(options.totals, options.totalsIntervalMs ?? 60_000, this.link);
    this.held = new HeldLogReceipt(options, this.link);
  }

  /** True while the link is open and welcomed. */
  get connected(): boolean {
    return this.link.connected;
  }

  /** The node token in force (list downloads authenticate with it); it changes as the agent rotates it. */
  get nodeToken(): string {
    return this.credentials.current().nodeToken;
  }

  /** What the agent counted since it was made, for the node's metrics (a copy). */
  get metrics(): { logRows: LogRowMetrics } {
    return { logRows: this.outbox.metrics };
  }

  /** The version of the last profile document applied, or null before the first. */
  get profileVersion(): number | null {
    return this.profile.version;
  }

  /**
   * Loads the credentials, applies the current profile and opens the link; resolves once welcomed. With a
   * filter that holds a last good state, an API that cannot be reached does not stop the start: the node
   * decides with that state and keeps trying to link.
   */
  async start(): Promise<void> {
    await this.credentials.load();
    this.profile.resume();
    this.link.start();
    const offlineStart = (await this.options.filter?.loadLastGood()) === true;
    try {
      await this.refreshProfile();
    } catch (error) {
      const refused = error instanceof ProfileSignatureError || error instanceof ProfileDocumentRefusedError;
      if (!offlineStart || refused) throw error;
      this.logger.warn('the API cannot be reached: deciding with the last good state', {
        error: error instanceof Error ? error.message : String(error),
      });
      this.link.connect();
      this.totals.start();
      return;
    }
    await new Promise<void>((resolve) => {
      this.welcomed = resolve;
      this.link.connect();
    });
    this.totals.start();
  }

  /** Closes the link and stops reconnecting. */
  async stop(): Promise<void> {
    this.link.halt();
    this.totals.stop();
    this.queries.abortAll();
    this.outbox.rejectAll(new Error('the agent stopped'));
    await this.link.close();
  }

  /** The API client of the current token. */
  client(): SvcClient {
    return createClient({ baseUrl: this.options.baseUrl, token: this.nodeToken });
  }

  /**
   * Fetches the profile document, verifies its signature against the enrolment keys, checks that it is the
   * enrolled profile's and not older than the one applied, and hands it to `onProfile`; its version is then
   * persisted with the credentials. A refused document is logged with the reason, passed to
   * `onRejectedProfile`, and the error thrown.
   */
  refreshProfile(): Promise<NodeProfileDocument> {
    return this.profile.refresh();
  }

  /** Sends the hourly totals the API has not acknowledged as they are now (each message at most 48 hours). */
  sendTotals(): void {
    this.totals.send();
  }

  /**
   * Rotates the node token (POST /v1/nodes/self/token): the new token is persisted before anything uses it,
   * then one request made with it starts the old token's 600 s grace. The open link stays up.
   */
  async rotateToken(): Promise<void> {
    const rotated = await this.client().nodes.self.rotateToken();
    await this.credentials.update({ nodeToken: rotated.node_token });
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
    if (!this.link.connected) return Promise.reject(new Error('the link is not connected'));
    return this.outbox.send(options.id ?? randomUUID(), rows, this.link.maxMessageBytes);
  }

  /**
   * What the agent does with each type of server message; heartbeat_ack, error and types of later protocol
   * versions need nothing.
   */
  private readonly handlers: Record<string, (message: ServerMessage) => Promise<void> | void> = {
    welcome: (message) => this.welcome(message),
    lists_changed: () => this.refreshProfile().then(() => undefined),
    operator_file: (message) =>
      receiveOperatorFile(
        {
          options: this.options,
          logger: this.logger,
          profileKeys: () => this.credentials.current().profileKeys,
          send: (ack) => this.link.send(ack),
        },
        message,
      ),
    hourly_totals_ack: (message) => this.totals.settled(message),
    profile_changed: async (message) => {
      if (typeof message.version === 'number' && message.version !== this.profile.version) {
        await this.refreshProfile();
      }
    },
    query: (message) => this.queries.answer(message),
    cancel: (message) => this.queries.cancel(String(message.id)),
    log_batch_ack: (message) => this.outbox.settled(message),
    held_logs: (message) => this.held.receive(message),
  };

  private async onMessage(message: ServerMessage): Promise<void> {
    if (!Object.hasOwn(this.handlers, message.type)) return;
    await this.handlers[message.type]?.(message);
  }

  /** The link is up: pace and heartbeat as announced, resend what the last link lost, catch up the profile. */
  private async welcome(message: ServerMessage): Promise<void> {
    this.link.welcomed(message);
    this.welcomed?.();
    this.welcomed = undefined;
    // Batches whose acknowledgement a dropped link lost: the API tells a resend apart by its id.
    this.outbox.resendAll();
    // Totals sent on the dropped link are sent again: the API adds only what grew.
    this.totals.resend();
    if (this.profile.isBehind(message.profile_version, message.lists_sha256)) await this.refreshProfile();
  }
}
