import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  type BusSubscription,
  type Clock,
  DomainError,
  type KeyedHash,
  type MessageBus,
  NODE_LINK_HEARTBEAT_SECONDS,
  NODE_LINK_MAX_MESSAGE_BYTES,
  NODE_OFFLINE_RETRY_AFTER_S,
  type NodeHourlyTotalsService,
  NodeLinkCloseCodes,
  type NodeLogBatchService,
  type NodeLogHoldStore,
  type NodeOperatorFileName,
  type NodePresence,
  type NodeQueryResult,
  type NodeStore,
  type ProfileRecord,
  type ProfileSigner,
  type ProfileStore,
} from '@svc/domain';
import type { Logger } from 'pino';
import type { WebSocket, WebSocketServer } from 'ws';
import type { Authenticator } from '../http/principal.js';
import { CrossServerRelay } from './cross-server-relay.js';
import { HeldLogDelivery } from './held-log-delivery.js';
import type { LinkBudgetLimits } from './link-budget-meter.js';
import { NodeLink } from './node-link.js';
import { subscribeLinksToChanges } from './node-link-broadcasts.js';
import { greetNodeLink, sendOperatorFiles } from './node-link-greeting.js';
import {
  dispatchNodeMessage,
  type NodeMessageHandlers,
  readNodeMessage,
  settleHourlyTotals,
  settleLogBatch,
} from './node-link-messages.js';
import { NodeLinkRegistry } from './node-link-registry.js';
import { watchLinkSocket } from './node-link-socket.js';
import { upgradeToNodeLink } from './node-link-upgrade.js';

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
 * What each message type does is one table (`handlers`); the links held are a {@link NodeLinkRegistry}.
 */
export class NodeLinkHub implements NodePresence {
  private readonly links = new NodeLinkRegistry();
  /** Made, with the `ws` library loaded, on the first link: a server no node links to never holds them. */
  private server: Promise<WebSocketServer> | undefined;
  private readonly subscriptions: BusSubscription[] = [];
  private sweeper: NodeJS.Timeout | undefined;
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
    this.subscriptions.push(...(await subscribeLinksToChanges(this.deps.bus, this.links, this.deps.signer)));
    await this.crossServer?.start();
    this.sweeper = setInterval(() => {
      const now = performance.now();
      for (const link of this.links.all()) {
        if (link.silentAt(now)) link.socket.close(NodeLinkCloseCodes.silent, 'no heartbeat');
      }
    }, NODE_LINK_HEARTBEAT_SECONDS * 1000);
    this.sweeper.unref();
  }

  isConnected(nodeId: string): boolean {
    return this.links.isConnected(nodeId);
  }

  /** The nodes holding a ready link to this server. */
  connectedNodeIds(): string[] {
    return this.links.connectedNodeIds();
  }

  /** The ready links this server holds, by profile id (for the hold's periodic delivery). */
  readyLinksByProfile(): Map<string, NodeLink[]> {
    return this.links.readyLinksByProfile();
  }

  /** Offers the link its profile's held rows (after its hello, and when the hold scheduler finds some). */
  offerHeld(link: NodeLink): void {
    this.held?.offer(link);
  }

  /** The ready link of one of the organisation's profile's nodes, if any holds one to this server. */
  linkOfProfile(orgId: string, profileId: string): NodeLink | undefined {
    return this.links.linkOfProfile(orgId, profileId);
  }

  /**
   * True while a profile's node is expected back: its link to this server dropped less than a minute ago,
   * not by revocation, and no node of the profile is connected since (spec 2.11 `node_reconnecting`).
   */
  reconnecting(orgId: string, profileId: string): boolean {
    return this.links.reconnecting(orgId, profileId);
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
    upgradeToNodeLink(
      {
        authenticator,
        problemBase: this.deps.problemBase,
        logger: this.deps.logger,
        webSocketServer: () => this.webSocketServer(),
        accept: (ws, node) => this.accept(ws, node.id, node.orgId, node.profileId),
      },
      req,
      socket,
      head,
    );
  }

  /** Closes every link (server shutdown) and stops listening to the bus. */
  async close(): Promise<void> {
    if (this.sweeper !== undefined) clearInterval(this.sweeper);
    for (const link of this.links.all()) link.socket.close(1001, 'server shutting down');
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

  private accept(socket: WebSocket, nodeId: string, orgId: string, profileId: string): void {
    const link = new NodeLink(socket, nodeId, orgId, profileId);
    this.links.add(link);
    watchLinkSocket(link, this.deps.budget, this.deps.logger, {
      text: (from, text) => this.onMessage(from, text),
      closed: (closed, code) => {
        closed.dropped();
        if (closed.ready) this.recordClosed(closed);
        this.links.closed(closed, code);
        this.touch(nodeId);
      },
    });
  }

  /** One handler per message type a node sends (the protocol's list: other types are ignored). */
  private readonly handlers: NodeMessageHandlers = {
    hello: async (link, message) => {
      if (!(await greetNodeLink(this.deps, this.links, link, message))) return;
      this.held?.offer(link);
      await sendOperatorFiles(this.deps, link);
    },
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

  /** Records the link's heartbeat, which tells every server the node is online (node alerts). */
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
