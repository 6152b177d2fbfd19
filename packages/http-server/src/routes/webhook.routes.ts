import {
  PageQuery,
  Webhook,
  WebhookCreate,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookId,
  WebhookList,
  WebhookSecretRotation,
  type WebhookService,
  WebhookUpdate,
  WebhookWithSecret,
} from '@svc/domain';
import { z } from 'zod';
import { type AnyRoute, defineRoute } from './route-definition.js';
import { actingOrgId } from './route-principal.js';

const WebhookPath = z.object({ id: WebhookId });
const DeliveryPath = z.object({ id: WebhookId, delivery: z.uuid({ error: 'must be a uuid' }) });
const LOCATION = {
  Location: { description: 'The endpoint’s address.', schema: { type: 'string' as const } },
};
const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * The organisation the caller acts in; owners and admins only, as the role matrix says (403 insufficient_role
 * for editors and viewers, checked by the pipeline before the handler runs).
 */
const managingOrg = actingOrgId;

/** Signed webhooks of the organisation (issue 40; docs/webhooks.md). */
export function webhookRoutes(webhooks: WebhookService): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/webhooks',
      operationId: 'listWebhooks',
      summary: 'The organisation’s webhook endpoints',
      tags: ['webhooks'],
      auth: 'account',
      scope: 'webhooks:read',
      request: { query: PageQuery },
      responses: {
        200: { description: 'Endpoints, newest first; never their secrets.', schema: WebhookList },
      },
      handler: async ({ principal, query }) => ({
        status: 200,
        body: await webhooks.list(managingOrg(principal), query.limit, query.cursor),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/webhooks',
      operationId: 'createWebhook',
      summary: 'Register a webhook endpoint',
      description:
        'Events of the chosen types are POSTed to `url`, signed as Standard Webhooks specifies (`webhook-id`, `webhook-timestamp`, `webhook-signature`). The signing secret (`whsec_…`) is in this answer only. The URL must be https to a public address (checked again after resolution at each delivery); plain http and private addresses only where the operator set SVC_OUTBOUND_ALLOW_PRIVATE. At most 20 endpoints per organisation.',
      tags: ['webhooks'],
      auth: 'account',
      scope: 'webhooks:write',
      idempotent: true,
      answersSecret: true,
      request: { body: WebhookCreate },
      responses: {
        201: {
          description: 'The endpoint and its secret, shown once.',
          schema: WebhookWithSecret,
          headers: LOCATION,
        },
      },
      handler: async ({ principal, body }) => {
        const created = await webhooks.create(managingOrg(principal), body);
        return {
          status: 201,
          body: created,
          headers: { Location: `/v1/webhooks/${created.id}`, ...NO_STORE },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/webhooks/{id}',
      operationId: 'getWebhook',
      summary: 'A webhook endpoint',
      tags: ['webhooks'],
      auth: 'account',
      scope: 'webhooks:read',
      request: { params: WebhookPath },
      responses: { 200: { description: 'The endpoint.', schema: Webhook } },
      handler: async ({ principal, params }) => ({
        status: 200,
        body: webhooks.view(await webhooks.get(managingOrg(principal), params.id)),
      }),
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/webhooks/{id}',
      operationId: 'updateWebhook',
      summary: 'Change a webhook endpoint',
      description: '`enabled: true` resumes an endpoint disabled after three days of failures.',
      tags: ['webhooks'],
      auth: 'account',
      scope: 'webhooks:write',
      request: { params: WebhookPath, body: WebhookUpdate },
      responses: { 200: { description: 'The endpoint as changed.', schema: Webhook } },
      handler: async ({ principal, params, body }) => ({
        status: 200,
        body: webhooks.view(await webhooks.update(managingOrg(principal), params.id, body)),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/webhooks/{id}',
      operationId: 'deleteWebhook',
      summary: 'Delete a webhook endpoint',
      description: 'Its pending deliveries are dropped.',
      tags: ['webhooks'],
      auth: 'account',
      scope: 'webhooks:write',
      request: { params: WebhookPath },
      responses: { 204: { description: 'Deleted.' } },
      handler: async ({ principal, params }) => {
        await webhooks.delete(managingOrg(principal), params.id);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/webhooks/{id}/rotate-secret',
      operationId: 'rotateWebhookSecret',
      summary: 'Rotate a webhook endpoint’s signing secret',
      description:
        'The new secret is in this answer only. During the overlap (`overlap_hours`, 24 unless told) each delivery carries two signatures, one per secret, so the receiver can switch at its own pace.',
      tags: ['webhooks'],
      auth: 'account',
      scope: 'webhooks:write',
      answersSecret: true,
      request: { params: WebhookPath, body: WebhookSecretRotation },
      responses: { 200: { description: 'The endpoint and its new secret.', schema: WebhookWithSecret } },
      handler: async ({ principal, params, body }) => ({
        status: 200,
        body: await webhooks.rotateSecret(managingOrg(principal), params.id, body),
        headers: NO_STORE,
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/webhooks/{id}/test',
      operationId: 'pingWebhook',
      summary: 'Send a ping to a webhook endpoint',
      description:
        'Queues a `ping` event after whatever the endpoint is still owed; follow it in its deliveries.',
      tags: ['webhooks'],
      auth: 'account',
      scope: 'webhooks:write',
      request: { params: WebhookPath },
      responses: { 202: { description: 'The queued delivery.', schema: WebhookDelivery } },
      handler: async ({ principal, params }) => ({
        status: 202,
        body: await webhooks.ping(managingOrg(principal), params.id),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/webhooks/{id}/deliveries',
      operationId: 'listWebhookDeliveries',
      summary: 'A webhook endpoint’s deliveries',
      tags: ['webhooks'],
      auth: 'account',
      scope: 'webhooks:read',
      request: { params: WebhookPath, query: PageQuery },
      responses: { 200: { description: 'Deliveries, newest first.', schema: WebhookDeliveryList } },
      handler: async ({ principal, params, query }) => ({
        status: 200,
        body: await webhooks.deliveries(managingOrg(principal), params.id, query.limit, query.cursor),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/webhooks/{id}/deliveries/{delivery}/redeliver',
      operationId: 'redeliverWebhook',
      summary: 'Deliver a message again',
      description:
        'Queues the same message (same `webhook-id` and body) as a new delivery at the end of the endpoint’s queue. A delivery still pending is 422.',
      tags: ['webhooks'],
      auth: 'account',
      scope: 'webhooks:write',
      request: { params: DeliveryPath },
      responses: { 202: { description: 'The new delivery.', schema: WebhookDelivery } },
      handler: async ({ principal, params }) => ({
        status: 202,
        body: await webhooks.redeliver(managingOrg(principal), params.id, params.delivery),
      }),
    }),
  ];
}
