import { randomUUID } from 'node:crypto';
import {
  type BusSubscription,
  DomainError,
  type MessageBus,
  NODE_OFFLINE_RETRY_AFTER_S,
  type NodeQueryResult,
  ProblemCodes,
} from '@svc/domain';
import type { Logger } from 'pino';
import { NODE_QUERY_TIMEOUT_MS, type NodeLink } from './node-link.js';

/** Subject every API server listens on for queries to relay to a link it holds. */
const REQUEST_SUBJECT = 'nodes.relay.request';
/** How long the asking server waits for the server holding the link to claim the query. */
const CLAIM_TIMEOUT_MS = 1_000;

/** A query relayed between API servers. */
interface RelayRequest {
  request_id: string;
  reply_subject: string;
  org_id: string;
  profile_id: string;
  shape: string;
  params: Record<string, unknown>;
}

/** What the server holding the link answers: a claim first, then the answer or the failure. */
type RelayReply =
  | { request_id: string; kind: 'accepted' }
  | { request_id: string; kind: 'answer'; node_id: string; result: NodeQueryResult }
  | { request_id: string; kind: 'error'; code: string; detail: string; retry_after?: number };

/** A reply before the request's id is added. */
type ReplyBody = RelayReply extends infer Reply
  ? Reply extends unknown
    ? Omit<Reply, 'request_id'>
    : never
  : never;

interface PendingRequest {
  resolve(answer: { nodeId: string; result: NodeQueryResult }): void;
  reject(error: DomainError): void;
  timer: NodeJS.Timeout;
}

function isRelayRequest(payload: unknown): payload is RelayRequest {
  const request = payload as Partial<RelayRequest> | null;
  return (
    typeof request?.request_id === 'string' &&
    typeof request.reply_subject === 'string' &&
    typeof request.org_id === 'string' &&
    typeof request.profile_id === 'string' &&
    typeof request.shape === 'string' &&
    typeof request.params === 'object'
  );
}

function offline(): DomainError {
  return new DomainError('node_offline', 'This profile’s self-hosted node is not connected.', {
    retryAfter: NODE_OFFLINE_RETRY_AFTER_S,
  });
}

/**
 * Queries for a node whose link another API server holds, over the message bus (NATS): the asking server
 * publishes the query with a reply subject of its own; the server holding a link of the profile claims it at
 * once, runs it on the link and publishes the answer or the failure. No claim within 1 s means no server holds
 * a link (503 node_offline); a bus that cannot carry the query is 503 relay_unavailable.
 */
export class CrossServerRelay {
  private readonly replySubject = `nodes.relay.reply.${randomUUID()}`;
  private readonly pending = new Map<string, PendingRequest>();
  private readonly subscriptions: BusSubscription[] = [];

  constructor(
    private readonly bus: MessageBus,
    private readonly localLink: (orgId: string, profileId: string) => NodeLink | undefined,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    this.subscriptions.push(
      await this.bus.subscribe(REQUEST_SUBJECT, (delivery) => this.onRequest(delivery.payload)),
      await this.bus.subscribe(this.replySubject, (delivery) => this.onReply(delivery.payload as RelayReply)),
    );
  }

  async close(): Promise<void> {
    for (const subscription of this.subscriptions.splice(0)) await subscription.unsubscribe();
    for (const [id, request] of this.pending) {
      clearTimeout(request.timer);
      request.reject(new DomainError('relay_unavailable', 'This API server is shutting down.'));
      this.pending.delete(id);
    }
  }

  /** Asks the server holding a link of the profile to run the query on it. */
  ask(
    orgId: string,
    profileId: string,
    shape: string,
    params: Record<string, unknown>,
  ): Promise<{ nodeId: string; result: NodeQueryResult }> {
    const request: RelayRequest = {
      request_id: randomUUID(),
      reply_subject: this.replySubject,
      org_id: orgId,
      profile_id: profileId,
      shape,
      params,
    };
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.settle(request.request_id)?.reject(offline()), CLAIM_TIMEOUT_MS);
      this.pending.set(request.request_id, { resolve, reject, timer });
      this.bus.publish(REQUEST_SUBJECT, request).catch((error: unknown) => {
        this.settle(request.request_id)?.reject(
          new DomainError('relay_unavailable', 'The message bus cannot carry the query to its node.', {
            cause: error,
          }),
        );
      });
    });
  }

  private settle(requestId: string): PendingRequest | undefined {
    const request = this.pending.get(requestId);
    if (request === undefined) return undefined;
    clearTimeout(request.timer);
    this.pending.delete(requestId);
    return request;
  }

  private onReply(reply: RelayReply): void {
    const request = this.pending.get(reply.request_id);
    if (request === undefined) return;
    switch (reply.kind) {
      case 'accepted':
        // Claimed: now the node's own time-out applies, with a margin for the bus.
        clearTimeout(request.timer);
        request.timer = setTimeout(
          () =>
            this.settle(reply.request_id)?.reject(
              new DomainError('node_timeout', 'This profile’s node did not answer within 10 s.'),
            ),
          NODE_QUERY_TIMEOUT_MS + CLAIM_TIMEOUT_MS,
        );
        return;
      case 'answer':
        this.settle(reply.request_id)?.resolve({ nodeId: reply.node_id, result: reply.result });
        return;
      case 'error': {
        const code = (ProblemCodes as readonly string[]).includes(reply.code) ? reply.code : 'node_error';
        this.settle(reply.request_id)?.reject(
          new DomainError(code as (typeof ProblemCodes)[number], reply.detail, {
            ...(reply.retry_after === undefined ? {} : { retryAfter: reply.retry_after }),
          }),
        );
        return;
      }
    }
  }

  private async onRequest(payload: unknown): Promise<void> {
    if (!isRelayRequest(payload)) return;
    const link = this.localLink(payload.org_id, payload.profile_id);
    if (link === undefined) return;
    const reply = (message: ReplyBody) =>
      this.bus.publish(payload.reply_subject, { ...message, request_id: payload.request_id });
    try {
      await reply({ kind: 'accepted' });
      const result = await link.query(payload.shape, payload.params);
      await reply({ kind: 'answer', node_id: link.nodeId, result });
    } catch (error) {
      if (!(error instanceof DomainError)) {
        this.logger.warn({ err: error }, 'a relayed query could not be answered over the bus');
        return;
      }
      await reply({
        kind: 'error',
        code: error.code,
        detail: error.message,
        ...(error.retryAfter === undefined ? {} : { retry_after: error.retryAfter }),
      }).catch((publishError: unknown) => {
        this.logger.warn({ err: publishError }, 'a relayed query’s failure could not be sent back');
      });
    }
  }
}
