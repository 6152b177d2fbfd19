import { randomUUID } from 'node:crypto';
import {
  type BusSubscription,
  type Clock,
  DomainError,
  type KeyedHash,
  type MessageBus,
  NODE_OFFLINE_RETRY_AFTER_S,
  NodeQueryResult,
  ProblemCodes,
  ProfileId,
  RelayedQuery,
} from '@svc/domain';
import type { Logger } from 'pino';
import { z } from 'zod';
import { NODE_QUERY_TIMEOUT_MS, type NodeLink } from './node-link.js';
import { RELAY_MESSAGE_MAX_AGE_MS, RelayEnvelope } from './relay-envelope.js';

/** Subject every API server listens on for queries to relay to a link it holds. */
const REQUEST_SUBJECT = 'nodes.relay.request';
/** How long the asking server waits for the server holding the link to claim the query. */
const CLAIM_TIMEOUT_MS = 1_000;

/** Subjects the asking servers listen on for replies, one per server. */
const REPLY_SUBJECT_PREFIX = 'nodes.relay.reply.';

/**
 * A query relayed between API servers, checked on arrival; its `shape` and `params` are then checked against
 * what that shape allows (RelayedQuery).
 */
const RelayRequest = z.strictObject({
  kind: z.literal('request'),
  request_id: z.uuid(),
  reply_subject: z.string().regex(/^nodes\.relay\.reply\.[0-9a-f-]{36}$/),
  org_id: z.string().min(1).max(64),
  profile_id: ProfileId,
  shape: z.string(),
  params: z.unknown(),
  sent_at: z.number(),
});

/** What the server holding the link answers: a claim first, then the answer or the failure. */
const RelayReply = z.discriminatedUnion('kind', [
  z.strictObject({ request_id: z.uuid(), sent_at: z.number(), kind: z.literal('accepted') }),
  z.strictObject({
    request_id: z.uuid(),
    sent_at: z.number(),
    kind: z.literal('answer'),
    node_id: z.uuid(),
    result: NodeQueryResult,
  }),
  z.strictObject({
    request_id: z.uuid(),
    sent_at: z.number(),
    kind: z.literal('error'),
    code: z.string().max(64),
    detail: z.string().max(1_000),
    retry_after: z.int().min(0).optional(),
  }),
]);
type RelayReply = z.infer<typeof RelayReply>;

/** A reply before the request's id and the time are added. */
type ReplyBody = RelayReply extends infer Reply
  ? Reply extends unknown
    ? Omit<Reply, 'request_id' | 'sent_at'>
    : never
  : never;

interface PendingRequest {
  resolve(answer: { nodeId: string; result: NodeQueryResult }): void;
  reject(error: DomainError): void;
  timer: NodeJS.Timeout;
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
 *
 * Every request and reply is signed with a key derived from SVC_SECRET (RelayEnvelope) and checked on arrival:
 * a message that is unsigned, signed with another key, older than 30 s, seen before, or asking for what the
 * HTTP routes would not (RelayedQuery) is logged and dropped, never answered. Whoever reaches the bus without
 * the secret can neither read a profile's logs through a server nor pass off an answer as a node's.
 */
export class CrossServerRelay {
  private readonly replySubject = `${REPLY_SUBJECT_PREFIX}${randomUUID()}`;
  private readonly pending = new Map<string, PendingRequest>();
  private readonly subscriptions: BusSubscription[] = [];
  /** Ids of the requests answered lately (when each arrived, ms): a replayed request is refused. */
  private readonly seen = new Map<string, number>();
  private readonly envelope: RelayEnvelope;

  constructor(
    private readonly bus: MessageBus,
    private readonly localLink: (orgId: string, profileId: string) => NodeLink | undefined,
    private readonly logger: Logger,
    private readonly keys: { hash: KeyedHash; clock: Clock },
  ) {
    this.envelope = new RelayEnvelope(keys.hash, keys.clock);
  }

  async start(): Promise<void> {
    this.subscriptions.push(
      await this.bus.subscribe(REQUEST_SUBJECT, (delivery) => this.onRequest(delivery.payload)),
      await this.bus.subscribe(this.replySubject, (delivery) => this.onReply(delivery.payload)),
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
    const requestId = randomUUID();
    const request = this.envelope.seal(REQUEST_SUBJECT, {
      kind: 'request',
      request_id: requestId,
      reply_subject: this.replySubject,
      org_id: orgId,
      profile_id: profileId,
      shape,
      params,
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.settle(requestId)?.reject(offline()), CLAIM_TIMEOUT_MS);
      this.pending.set(requestId, { resolve, reject, timer });
      this.bus.publish(REQUEST_SUBJECT, request).catch((error: unknown) => {
        this.settle(requestId)?.reject(
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

  /** Logs a refused message (never its content: it may hold a profile's log rows) and drops it. */
  private refuse(subject: string, reason: string): void {
    this.logger.warn({ subject, reason }, 'a relay message on the bus was refused');
  }

  private onReply(payload: unknown): void {
    const opened = this.envelope.open(this.replySubject, payload);
    const parsed = opened.ok ? RelayReply.safeParse(opened.body) : undefined;
    if (parsed?.success !== true) {
      this.refuse(this.replySubject, opened.ok ? 'bad_message' : opened.reason);
      return;
    }
    const reply = parsed.data;
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

  /** True the first time a request id arrives within the replay window; forgets ids older than it. */
  private firstSighting(requestId: string): boolean {
    const now = this.keys.clock.now().getTime();
    for (const [id, at] of this.seen) {
      // Insertion order is arrival order: the first id still inside the window ends the sweep. Twice the
      // window: a request may arrive up to 30 s early as well as late (clock skew).
      if (now - at <= 2 * RELAY_MESSAGE_MAX_AGE_MS) break;
      this.seen.delete(id);
    }
    if (this.seen.has(requestId)) return false;
    this.seen.set(requestId, now);
    return true;
  }

  private async onRequest(payload: unknown): Promise<void> {
    const opened = this.envelope.open(REQUEST_SUBJECT, payload);
    if (!opened.ok) return this.refuse(REQUEST_SUBJECT, opened.reason);
    const header = RelayRequest.safeParse(opened.body);
    if (!header.success) return this.refuse(REQUEST_SUBJECT, 'bad_message');
    const request = header.data;
    const query = RelayedQuery.safeParse({ shape: request.shape, params: request.params });
    if (!query.success || query.data.params.profile_id !== request.profile_id)
      return this.refuse(REQUEST_SUBJECT, 'bad_parameters');
    const link = this.localLink(request.org_id, request.profile_id);
    if (link === undefined) return;
    // Checked only by the server holding the link: the others drop the request anyway.
    if (!this.firstSighting(request.request_id)) return this.refuse(REQUEST_SUBJECT, 'replayed');
    const reply = (message: ReplyBody) =>
      this.bus.publish(
        request.reply_subject,
        this.envelope.seal(request.reply_subject, { ...message, request_id: request.request_id }),
      );
    try {
      await reply({ kind: 'accepted' });
      const result = await link.query(query.data.shape, query.data.params);
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
