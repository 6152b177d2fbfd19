import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  type BusSubscription,
  type Clock,
  DomainError,
  EdgeDocumentHead,
  type KeyedHash,
  LISTS_CHANGED_SUBJECT,
  type MessageBus,
  NODE_LINK_HEARTBEAT_SECONDS,
  NODE_LINK_MAX_MESSAGE_BYTES,
  NODE_LINK_PROTOCOL_VERSION,
  NODE_OFFLINE_RETRY_AFTER_S,
  NODE_OPERATOR_FILES,
  NODE_REVOKED_SUBJECT,
  type NodeHourlyTotalsService,
  NodeLinkCloseCodes,
  type NodeLogBatchService,
  type NodeLogHoldStore,
  type NodeOperatorFileName,
  type NodePresence,
  type NodeQueryResult,
  type NodeStore,
  type NodeToServerMessage,
  nodeOperatorFile,
  OPERATOR_CHANGED_SUBJECT,
  operatorFileSignaturePayload,
  type ProfileRecord,
  type ProfileSigner,
  type ProfileStore,
  type ServerToNodeMessage,
} from '@svc/domain';
import type { Logger } from 'pino';
import type { RawData, WebSocket, WebSocketServer } from 'ws';
import type { Authenticator, Principal } from '../http/principal.js';
import { problemFor, problemFromError } from '../problems/problem-document.js';
import { CrossServerRelay } from './cross-server-relay.js';
import { HeldLogDelivery } from './held-log-delivery.js';
import { type LinkBudgetLimits, LinkBudgetMeter } from './link-budget-meter.js';
import { NodeLink } from './node-link.js';
import {
  dispatchNodeMessage,
  type NodeMessageHandlers,
  readNodeMessage,
  settleHourlyTotals,
  settleLogBatch,
} from './node-link-messages.js';

/** Path of the link (ROUTES.md). */
const NODE_LINK_PATH = '/v1/nodes/self/link';
/** How long a node whose link dropped counts as reconnecting rather than offline. */
const RECONNECT_WINDOW_MS = 60_000;
/** How long a new link has to say hello. */
const HELLO_TIMEOUT_MS = 10_000;
/** How long a link closed for its budget has to answer the close before it is cut. */
const OVER_BUDGET_GRACE_MS = 1_000;

/** The bytes of a received message, whichever form the WebSocket layer gave it in. */
function sizeOf(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((total, chunk) => total + chunk.length, 0);
  return data.byteLength;
}

/** What the hub is built from. */
export interface NodeLinkHubDependencies {
  store: NodeStore;
  profileStore: ProfileStore;
  clock: Clock;
  bus: MessageBus;
  logger: Logger;
  problemBase: string;
  /** True when other API servers share the bus (NATS): queries for links held elsewhere go over it. */
  crossServer: boolean;
  /** Signs and checks the queries relayed between API servers (its key is derived from SVC_SECRET). */
  keyedHash: KeyedHash;
  /** Settles the nodes' log batches (stores them for `both` profiles when a columnar store is configured). */
  logBatches: NodeLogBatchService;
  /** Adds the nodes' hourly totals to the cloud's (when a columnar store is configured). */
  hourlyTotals?: NodeHourlyTotalsService;
  /** What each link may send a second before it is closed with 4005. */
  budget: LinkBudgetLimits;
  /**
   * The offline hold and link state in the database (engine-backed servers): links are recorded there and held
   * rows delivered after the hello. Without it nothing is held.
   */
  hold?: NodeLogHoldStore;
  /** The digest of a profile's lists manifest for its nodes, sent in the welcome. */
  listsDigest?: (profile: ProfileRecord) => Promise<string>;
  /** The operator files as last published, sent to each node after its welcome (spec 3, 4.10). */
  operatorFiles?: () => Promise<{ file: NodeOperatorFileName; version: number; document: unknown }[]>;
  /** Signs operator files as profile documents are signed (nothing when the server does not sign). */
  signer?: ProfileSigner;
}

/**
 * The links of self-hosted nodes held by this API server (GET /v1/nodes/self/link, docs/node-link-protocol.md):
 * authenticates upgrades with the node token, keeps one link per node (a newer one replaces the older), pushes
 * `profile_changed` when the profile's document is published, closes a revoked node's link, and relays queries.
 */
export class NodeLinkHub implements NodePresence {
  private readonly links = new Map<string, NodeLink>();
  /** Made, with the `ws` library loaded, on the first link: a server no node links to never holds them. */
  private server: Promise<WebSocketServer> | undefined;
  private readonly subscriptions: BusSubscription[] = [];
  private sweeper: NodeJS.Timeout | undefined;
  /** When the last ready link of a profile dropped (monotonic ms), by `orgId/profileId`. */
  private readonly droppedAt = new Map<string, number>();
  private readonly crossServer: CrossServerRelay | undefined;
  private readonly held: HeldLogDelivery | undefined;

  constructor(private readonly deps: NodeLinkHubDependencies) {
    this.held =
      deps.hold === undefined
        ? undefined
        : new HeldLogDelivery({ store: deps.hold, clock: deps.clock, logger: deps.logger });
    this.crossServer = deps.crossServer
      ? new CrossServerRelay(
          deps.bus,
          (orgId, profileId) => this.linkOfProfile(orgId, profileId),
          deps.logger,
          { hash: deps.keyedHash, clock: deps.clock },
        )
      : undefined;
  }

  /** Subscribes to profile publications and node revocations, and starts the silence sweep. */
  async start(): Promise<void> {
    this.subscriptions.push(
      await this.deps.bus.subscribe('profiles.>', (delivery) => this.onProfilePublished(delivery.payload)),
      // A new operator file version: every linked node gets the part in its scope.
      await this.deps.bus.subscribe(OPERATOR_CHANGED_SUBJECT, (delivery) => {
        const changed = delivery.payload as { file?: unknown; version?: unknown; document?: unknown };
        const file = NODE_OPERATOR_FILES.find((name) => name === changed.file);
        if (file === undefined || typeof changed.version !== 'number') return;
        const message = this.operatorFileMessage(file, changed.version, changed.document);
        for (const link of this.links.values()) if (link.ready) link.send(message);
      }),
      // New list versions: every linked node compares its manifest's digest with a fresh document's.
      await this.deps.bus.subscribe(LISTS_CHANGED_SUBJECT, () => {
        for (const link of this.links.values()) if (link.ready) link.send({ type: 'lists_changed' });
      }),
      await this.deps.bus.subscribe(NODE_REVOKED_SUBJECT, (delivery) => {
        const nodeId = (delivery.payload as { node_id?: unknown }).node_id;
        if (typeof nodeId === 'string')
          this.links.get(nodeId)?.socket.close(NodeLinkCloseCodes.revoked, 'node_revoked');
      }),
    );
    await this.crossServer?.start();
    this.sweeper = setInterval(() => {
      const now = performance.now();
      for (const link of this.links.values()) {
        if (link.silentAt(now)) link.socket.close(NodeLinkCloseCodes.silent, 'no heartbeat');
      }
    }, NODE_LINK_HEARTBEAT_SECONDS * 1000);
    this.sweeper.unref();
  }

  isConnected(nodeId: string): boolean {
    return this.links.get(nodeId)?.ready === true;
  }

  /** The nodes holding a ready link to this server. */
  connectedNodeIds(): string[] {
    return [...this.links.values()].filter((link) => link.ready).map((link) => link.nodeId);
  }

  /** The ready links this server holds, by profile id (for the hold's periodic delivery). */
  readyLinksByProfile(): Map<string, NodeLink[]> {
    const byProfile = new Map<string, NodeLink[]>();
    for (const link of this.links.values()) {
      if (!link.ready) continue;
      const links = byProfile.get(link.profileId) ?? [];
      links.push(link);
      byProfile.set(link.profileId, links);
    }
    return byProfile;
  }

  /** Offers the link its profile's held rows (after its hello, and when the hold scheduler finds some). */
  offerHeld(link: NodeLink): void {
    this.held?.offer(link);
  }

  /** The ready link of one of the organisation's profile's nodes, if any holds one to this server. */
  linkOfProfile(orgId: string, profileId: string): NodeLink | undefined {
    for (const link of this.links.values()) {
      if (link.ready && link.profileId === profileId && link.orgId === orgId) return link;
    }
    return undefined;
  }

  /**
   * True while a profile's node is expected back: its link to this server dropped less than a minute ago,
   * not by revocation, and no node of the profile is connected since (spec 2.11 `node_reconnecting`).
   */
  reconnecting(orgId: string, profileId: string): boolean {
    const dropped = this.droppedAt.get(`${orgId}/${profileId}`);
    if (dropped === undefined) return false;
    if (performance.now() - dropped < RECONNECT_WINDOW_MS) return true;
    this.droppedAt.delete(`${orgId}/${profileId}`);
    return false;
  }

  /**
   * Relays a query to a connected node of the profile (spec 4.6, 7, 8): on the link this server holds, else
   * through the server that holds one (over NATS); 503 node_offline with Retry-After when none is connected,
   * then the link's rules (node_busy, shape_unsupported, node_timeout, node_error).
   */
  async relay(
    orgId: string,
    profileId: string,
    shape: string,
    params: Record<string, unknown>,
  ): Promise<{ nodeId: string; result: NodeQueryResult }> {
    const link = this.linkOfProfile(orgId, profileId);
    if (link === undefined) {
      if (this.crossServer !== undefined) return this.crossServer.ask(orgId, profileId, shape, params);
      throw new DomainError('node_offline', 'This profile’s self-hosted node is not connected.', {
        retryAfter: NODE_OFFLINE_RETRY_AFTER_S,
      });
    }
    return { nodeId: link.nodeId, result: await link.query(shape, params) };
  }

  /** Handles an HTTP upgrade: the link path with a live node token becomes a link; anything else is refused. */
  upgrade(authenticator: Authenticator, req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const requestId = randomUUID();
    const path = new URL(req.url ?? '/', 'http://link').pathname;
    if (path !== NODE_LINK_PATH) {
      this.refuse(socket, problemFor('not_found', 'No WebSocket is served here.', this.context(requestId)));
      return;
    }
    authenticator
      .authenticate({ headers: req.headers, clientIp: req.socket.remoteAddress ?? '' })
      .then(async (principal: Principal | null) => {
        const node = principal?.node?.node;
        if (principal?.kind !== 'node' || node === undefined) {
          throw new DomainError(
            'unauthenticated',
            'The link takes a node token (Authorization: Bearer svcnode_…).',
          );
        }
        const server = await this.webSocketServer();
        server.handleUpgrade(req, socket, head, (ws) => this.accept(ws, node.id, node.orgId, node.profileId));
      })
      .catch((error: unknown) => {
        const problem = problemFromError(error, this.context(requestId));
        if (problem.status >= 500) this.deps.logger.error({ err: error }, 'node link upgrade failed');
        this.refuse(socket, problem);
      });
  }

  /** Closes every link (server shutdown) and stops listening to the bus. */
  async close(): Promise<void> {
    if (this.sweeper !== undefined) clearInterval(this.sweeper);
    for (const link of this.links.values()) link.socket.close(1001, 'server shutting down');
    for (const subscription of this.subscriptions.splice(0)) await subscription.unsubscribe();
    await this.crossServer?.close();
    const server = await this.server;
    if (server === undefined) return;
    for (const client of server.clients) client.terminate();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private webSocketServer(): Promise<WebSocketServer> {
    this.server ??= import('ws').then(
      // A longer message is refused by the WebSocket layer, which closes the link with 1009 before buffering it.
      ({ WebSocketServer }) =>
        new WebSocketServer({ noServer: true, maxPayload: NODE_LINK_MAX_MESSAGE_BYTES }),
    );
    return this.server;
  }

  private context(requestId: string) {
    return { requestId, problemBase: this.deps.problemBase };
  }

  private refuse(socket: Duplex, problem: ReturnType<typeof problemFor>): void {
    const body = JSON.stringify(problem.body);
    const reason = problem.body.title;
    socket.end(
      `HTTP/1.1 ${problem.status} ${reason}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${problem.body.request_id}\r\nConnection: close\r\n\r\n${body}`,
    );
  }

  private accept(socket: WebSocket, nodeId: string, orgId: string, profileId: string): void {
    const link = new NodeLink(socket, nodeId, orgId, profileId);
    this.links.get(nodeId)?.socket.close(NodeLinkCloseCodes.replaced, 'replaced by a newer link');
    this.links.set(nodeId, link);
    const helloTimer = setTimeout(() => {
      if (!link.ready) socket.close(NodeLinkCloseCodes.protocolError, 'hello expected');
    }, HELLO_TIMEOUT_MS);
    const budget = new LinkBudgetMeter(this.deps.budget, performance.now());
    let overBudget = false;
    socket.on('message', (data, isBinary) => {
      if (overBudget) return;
      link.lastHeardMs = performance.now();
      if (!budget.spend(sizeOf(data), link.lastHeardMs)) {
        overBudget = true;
        this.deps.logger.warn({ nodeId, budget: this.deps.budget }, 'node link over its budget: closed');
        socket.close(NodeLinkCloseCodes.overBudget, 'over budget');
        // A flood that ignores the close frame is cut instead of read for the 30 s the handshake may take.
        setTimeout(() => socket.terminate(), OVER_BUDGET_GRACE_MS).unref();
        return;
      }
      if (isBinary) {
        link.send({ type: 'error', code: 'bad_request', detail: 'messages are JSON text' });
        return;
      }
      this.onMessage(link, data.toString()).catch((error: unknown) => {
        this.deps.logger.error({ err: error, nodeId }, 'node link message failed');
      });
    });
    socket.on('close', (code) => {
      clearTimeout(helloTimer);
      link.dropped();
      if (link.ready) this.recordClosed(link);
      if (this.links.get(nodeId) === link) {
        this.links.delete(nodeId);
        // A link that dropped without the node being revoked is expected back: its profile is reconnecting.
        if (link.ready && code !== NodeLinkCloseCodes.revoked) {
          this.droppedAt.set(`${orgId}/${profileId}`, performance.now());
        }
      }
      this.touch(nodeId);
    });
    socket.on('error', (error) => this.deps.logger.warn({ err: error, nodeId }, 'node link error'));
  }

  /** One handler per message type a node sends (the protocol's list: other types are ignored). */
  private readonly handlers: NodeMessageHandlers = {
    hello: (link, message) => this.greet(link, message),
    heartbeat: (link) => {
      link.send({ type: 'heartbeat_ack' });
      this.linkSeen(link.nodeId);
    },
    query_result: (link, message) => link.answer(message.id, message.result),
    query_error: (link, message) => link.fail(message.id, message.code, message.detail),
    log_batch: (link, message) => settleLogBatch(this.deps, link, message.id, message.rows),
    held_logs_ack: async (link, message) => {
      await this.held?.acknowledged(link, message.seq);
    },
    operator_file_ack: (link, message) =>
      this.deps.store.acknowledgeOperatorFile(link.nodeId, message.file, message.version),
    hourly_totals: (link, message) => settleHourlyTotals(this.deps, link, message),
  };

  private async onMessage(link: NodeLink, text: string): Promise<void> {
    const message = readNodeMessage(link, text, this.handlers);
    if (message === undefined) return;
    if (message.type !== 'hello' && !link.ready) {
      link.socket.close(NodeLinkCloseCodes.protocolError, 'hello expected');
      return;
    }
    await dispatchNodeMessage(link, message, this.handlers);
  }

  /** Answers a hello: records the node's version and shapes, and welcomes it when its profile still exists. */
  private async greet(
    link: NodeLink,
    message: Extract<NodeToServerMessage, { type: 'hello' }>,
  ): Promise<void> {
    link.version = message.version;
    link.shapes = new Set(message.shapes);
    await this.deps.store.touch(link.nodeId, this.deps.clock.now(), {
      version: message.version,
      shapes: [...link.shapes],
    });
    const profile = await this.deps.profileStore.find(link.orgId, link.profileId);
    if (profile === null) {
      link.socket.close(NodeLinkCloseCodes.revoked, 'node_revoked');
      return;
    }
    // Recorded before the welcome, so a welcomed node reads online on every server.
    if (this.deps.hold === undefined) await this.deps.store.linkSeen([link.nodeId], this.deps.clock.now());
    else await this.deps.hold.linkOpened(link.nodeId, link.linkId, this.deps.clock.now());
    if (!link.open) {
      // Closed during the hello: its close found it not ready, so its link state is cleared here.
      await this.deps.hold?.linkClosed(link.nodeId, link.linkId);
      return;
    }
    const listsSha256 = await this.listsDigestOf(profile, link.nodeId);
    link.ready = true;
    this.droppedAt.delete(`${link.orgId}/${link.profileId}`);
    link.send({
      type: 'welcome',
      protocol: NODE_LINK_PROTOCOL_VERSION,
      node_id: link.nodeId,
      profile_id: link.profileId,
      profile_version: profile.version,
      ...(listsSha256 === undefined ? {} : { lists_sha256: listsSha256 }),
      heartbeat_s: NODE_LINK_HEARTBEAT_SECONDS,
      max_message_bytes: NODE_LINK_MAX_MESSAGE_BYTES,
      budget: {
        bytes_per_s: this.deps.budget.bytesPerSecond,
        messages_per_s: this.deps.budget.messagesPerSecond,
      },
    });
    this.held?.offer(link);
    await this.sendOperatorFiles(link);
  }

  /** A ready link closed: other servers read the node offline, and its unacknowledged held rows go back. */
  private recordClosed(link: NodeLink): void {
    const cleared = Promise.all([
      this.deps.hold?.linkClosed(link.nodeId, link.linkId),
      this.held?.closed(link),
    ]);
    cleared.catch((error: unknown) => {
      this.deps.logger.warn({ err: error, nodeId: link.nodeId }, 'could not record a closed node link');
    });
  }

  private onProfilePublished(payload: unknown): void {
    const head = EdgeDocumentHead.safeParse(payload);
    if (!head.success) return;
    const document = head.data;
    for (const link of this.links.values()) {
      if (link.profileId !== document.id) continue;
      if (document.kind === 'tombstone') link.socket.close(NodeLinkCloseCodes.revoked, 'node_revoked');
      else if (link.ready)
        link.send({ type: 'profile_changed', profile_id: document.id, version: document.version });
    }
  }

  /** The `operator_file` message of a file version: the node's part of it, signed when the server signs. */
  private operatorFileMessage(
    file: NodeOperatorFileName,
    version: number,
    document: unknown,
  ): ServerToNodeMessage {
    const scoped = nodeOperatorFile(file, version, document);
    const signed = this.deps.signer?.sign(operatorFileSignaturePayload(file, version, scoped)) ?? null;
    return {
      type: 'operator_file',
      file,
      version,
      document: scoped,
      ...(signed === null
        ? {}
        : { signature: signed.signature, key_id: signed.key.keyId, public_key: signed.key.publicKey }),
    };
  }

  /** Sends a welcomed link the operator files as published now (their changes follow as they happen). */
  private async sendOperatorFiles(link: NodeLink): Promise<void> {
    if (this.deps.operatorFiles === undefined) return;
    try {
      for (const { file, version, document } of await this.deps.operatorFiles()) {
        link.send(this.operatorFileMessage(file, version, document));
      }
    } catch (error) {
      this.deps.logger.warn(
        { err: error, nodeId: link.nodeId },
        'could not send the operator files to a node',
      );
    }
  }

  /** The lists digest for a welcome; undefined (the node then keeps its lists) when it cannot be worked out. */
  private async listsDigestOf(profile: ProfileRecord, nodeId: string): Promise<string | undefined> {
    try {
      return await this.deps.listsDigest?.(profile);
    } catch (error) {
      this.deps.logger.warn({ err: error, nodeId }, 'could not work out a node’s lists digest');
      return undefined;
    }
  }

  /** Records the link's hello or heartbeat, which tells every server the node is online (node alerts). */
  private linkSeen(nodeId: string): void {
    this.deps.store.linkSeen([nodeId], this.deps.clock.now()).catch((error: unknown) => {
      this.deps.logger.warn({ err: error, nodeId }, 'could not record a node’s link sighting');
    });
  }

  private touch(nodeId: string): void {
    this.deps.store.touch(nodeId, this.deps.clock.now()).catch((error: unknown) => {
      this.deps.logger.warn({ err: error, nodeId }, 'could not record a node’s last sighting');
    });
  }
}
