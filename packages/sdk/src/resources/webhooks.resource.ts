import { listPages } from '../list-pages.js';
import type { Paginator } from '../pagination.js';
import type { CreateOptions, Transport } from '../transport.js';
import type {
  Webhook,
  WebhookCreateRequest,
  WebhookDelivery,
  WebhookSecretRotationRequest,
  WebhookUpdateRequest,
  WebhookWithSecret,
} from '../webhooks.types.js';

/** Options of the auto-paging lists of {@link WebhooksResource}. */
export interface WebhookListOptions {
  /** Page size, 1 to 200 (default 50); iteration still returns every item, page after page. */
  limit?: number;
}

const path = (id: string) => `/v1/webhooks/${encodeURIComponent(id)}`;

/**
 * The organisation's signed webhooks, `/v1/webhooks` (scopes webhooks:read and webhooks:write, owners and
 * admins). Verify what your endpoint receives with {@link verifyWebhook}.
 */
export class WebhooksResource {
  constructor(private readonly transport: Transport) {}

  /**
   * POST /v1/webhooks. The `secret` (`whsec_…`) is in this answer only; store it now. A retry of the same call
   * (same idempotency key) answers the same endpoint and secret. Throws ApiError 422 naming `url` for an
   * address the deployment does not deliver to (plain http, private or loopback addresses).
   */
  async create(request: WebhookCreateRequest, options: CreateOptions = {}): Promise<WebhookWithSecret> {
    return (
      await this.transport.send<WebhookWithSecret>({
        method: 'POST',
        path: '/v1/webhooks',
        body: request,
        idempotent: true,
        idempotencyKey: options.idempotencyKey,
      })
    ).data;
  }

  /** GET /v1/webhooks: the endpoints, newest first. Auto-paging. */
  list(options: WebhookListOptions = {}): Paginator<Webhook> {
    return listPages<Webhook>(this.transport, '/v1/webhooks', 'webhooks', { limit: options.limit });
  }

  /** GET /v1/webhooks/{id}; ApiError 404 for another organisation's endpoint. */
  async get(id: string): Promise<Webhook> {
    return (await this.transport.send<Webhook>({ method: 'GET', path: path(id) })).data;
  }

  /** PATCH /v1/webhooks/{id}; `enabled: true` resumes an endpoint disabled after three days of failures. */
  async update(id: string, request: WebhookUpdateRequest): Promise<Webhook> {
    return (await this.transport.send<Webhook>({ method: 'PATCH', path: path(id), body: request })).data;
  }

  /** DELETE /v1/webhooks/{id}: its pending deliveries are dropped. */
  async delete(id: string): Promise<void> {
    await this.transport.send({ method: 'DELETE', path: path(id) });
  }

  /**
   * POST /v1/webhooks/{id}/rotate-secret: a new secret, in this answer only. During the overlap (24 h unless
   * told) each delivery is signed with both, so receivers can switch at their own pace. Not retried.
   */
  async rotateSecret(id: string, request: WebhookSecretRotationRequest = {}): Promise<WebhookWithSecret> {
    return (
      await this.transport.send<WebhookWithSecret>({
        method: 'POST',
        path: `${path(id)}/rotate-secret`,
        body: request,
      })
    ).data;
  }

  /** POST /v1/webhooks/{id}/test: queues a `ping`; follow it in {@link deliveries}. */
  async test(id: string): Promise<WebhookDelivery> {
    return (await this.transport.send<WebhookDelivery>({ method: 'POST', path: `${path(id)}/test` })).data;
  }

  /** GET /v1/webhooks/{id}/deliveries: newest first, with status, response code, duration and attempts. */
  deliveries(id: string, options: WebhookListOptions = {}): Paginator<WebhookDelivery> {
    return listPages<WebhookDelivery>(this.transport, `${path(id)}/deliveries`, 'deliveries', {
      limit: options.limit,
    });
  }

  /** POST /v1/webhooks/{id}/deliveries/{delivery}/redeliver: the same message again, as a new delivery. */
  async redeliver(id: string, deliveryId: string): Promise<WebhookDelivery> {
    return (
      await this.transport.send<WebhookDelivery>({
        method: 'POST',
        path: `${path(id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`,
      })
    ).data;
  }
}
