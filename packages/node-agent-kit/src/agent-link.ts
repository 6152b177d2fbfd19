import WebSocket from 'ws';
import { LinkPacer, paceOf, type SendLane } from './link-pacer.js';
import type { NodeAgentLogger } from './node-agent.options.js';

/** Close code of a revoked node: the agent stops instead of reconnecting. */
const REVOKED_CLOSE_CODE = 4001;
/** Close codes blaming the node: a message too big (1009), a protocol error (4003), over budget (4005). */
const FAULT_CLOSE_CODES = new Set([1009, 4003, 4005]);
/** Largest message of protocol version 1, for a server whose welcome does not say (older servers took more). */
const DEFAULT_MAX_MESSAGE_BYTES = 1_048_576;

/** A message from the server, read as JSON; each handler checks the fields it uses. */
export interface ServerMessage {
  type: string;
  [field: string]: unknown;
}

/** What the link is built from, and where it reports. */
export interface AgentLinkOptions {
  /** Reconnection backoff: first delay and cap in milliseconds (defaults 500 and 30 000), with jitter. */
  backoff?: { initialMs?: number; maxMs?: number } | undefined;
  logger: NodeAgentLogger;
  /** Where the next connection goes, and the node token it presents (the one in force then). */
  target(): { url: string; token: string };
  /** The hello sent on each new connection. */
  hello(): object;
  /** Each message the server sends. */
  onMessage(message: ServerMessage): Promise<void>;
  /** The connection dropped: what was running on it stops. */
  onDropped(): void;
  /** Asked when an upgrade is refused with 401: whether the node is revoked (else the link keeps trying). */
  isRevoked(): Promise<boolean>;
  /** Called once when the node finds itself revoked; the link has stopped. */
  onRevoked(): void;
}

/**
 * The node's end of the link (docs/node-link-protocol.md): opens the WebSocket with the node token, says
 * hello, reconnects with jittered backoff until stopped or revoked, keeps the heartbeat and the pace the
 * welcome announced, and sends through the {@link LinkPacer} (answers ahead of log batches).
 */
export class AgentLink {
  private socket: WebSocket | null = null;
  private ready = false;
  private stopped = true;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  /** Keeps sends within the budget the welcome announced, answers ahead of log batches. */
  private readonly pacer = new LinkPacer((text) => this.write(text));
  private messageBytes = DEFAULT_MAX_MESSAGE_BYTES;

  constructor(private readonly options: AgentLinkOptions) {}

  /** True while the link is open and welcomed. */
  get connected(): boolean {
    return this.ready;
  }

  /** True while the socket is open (welcomed or not). */
  get open(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** The connection in use, null between connections: tells one connection from the next. */
  get connection(): object | null {
    return this.socket;
  }

  /** Largest message the server takes, as its welcome said. */
  get maxMessageBytes(): number {
    return this.messageBytes;
  }

  /** From now on a dropped connection is reconnected (until {@link halt} or a revocation). */
  start(): void {
    this.stopped = false;
  }

  /** Opens a connection. */
  connect(): void {
    const { url, token } = this.options.target();
    const socket = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
    this.socket = socket;
    socket.on('open', () => this.send(this.options.hello()));
    socket.on('message', (data) => {
      // A failed profile refresh was reported to onRejectedProfile (or is retried on the next change); the
      // link itself stays up either way.
      this.options.onMessage(JSON.parse(data.toString()) as ServerMessage).catch(() => undefined);
    });
    socket.on('unexpected-response', (_request, response) => {
      socket.terminate();
      if (response.statusCode === 401) this.checkRevoked();
    });
    // Errors are followed by close, where reconnection is decided.
    socket.on('error', () => undefined);
    socket.on('close', (code, reason) => this.closed(socket, code, reason));
  }

  /** The welcome: the link is up; pace and heartbeat as announced. */
  welcomed(message: ServerMessage): void {
    this.ready = true;
    this.attempt = 0;
    this.messageBytes =
      typeof message.max_message_bytes === 'number' ? message.max_message_bytes : DEFAULT_MAX_MESSAGE_BYTES;
    this.pacer.setPace(paceOf(message.budget));
    const seconds = typeof message.heartbeat_s === 'number' ? message.heartbeat_s : 30;
    this.stopHeartbeat();
    this.heartbeatTimer = setInterval(() => this.send({ type: 'heartbeat' }), seconds * 1000);
    this.heartbeatTimer.unref();
  }

  /** Queues a message for the open link; answers and acknowledgements go ahead of log batches. */
  send(message: object, lane: SendLane = 'control'): void {
    if (this.open) this.pacer.send(JSON.stringify(message), lane);
  }

  /** Queues a message already serialised (a log batch) for the open link. */
  sendText(text: string, lane: SendLane): void {
    if (this.open) this.pacer.send(text, lane);
  }

  /** Stops reconnecting and heartbeats; {@link close} then closes the connection. */
  halt(): void {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    this.stopHeartbeat();
  }

  /** Drops what waits to be sent and closes the connection, resolving once it is closed. */
  async close(): Promise<void> {
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

  private closed(socket: WebSocket, code: number, reason: Buffer): void {
    if (this.socket !== socket) return;
    this.socket = null;
    this.ready = false;
    this.pacer.clear();
    // Closes that say this node broke the link's rules: worth an operator's look, the agent reconnects.
    if (FAULT_CLOSE_CODES.has(code))
      this.options.logger.warn('the server closed the link for a fault of this node', {
        code,
        reason: reason.toString(),
      });
    this.stopHeartbeat();
    this.options.onDropped();
    if (code === REVOKED_CLOSE_CODE) this.revoked();
    else this.scheduleReconnect();
  }

  /** A refused upgrade: a revoked node stops; anything else is retried. */
  private checkRevoked(): void {
    this.options.isRevoked().then(
      (revoked) => (revoked ? this.revoked() : this.scheduleReconnect()),
      () => this.scheduleReconnect(),
    );
  }

  private revoked(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.options.onRevoked();
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

  private write(text: string): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(text);
  }

  private stopHeartbeat(): void {
    clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = undefined;
  }
}
