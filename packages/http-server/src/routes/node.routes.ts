import { Node, NodeCreate, NodeCreated, NodeList, type NodeService, PageQuery } from '@svc/domain';
import { z } from 'zod';
import { ProfilePath } from './profile.routes.js';
import { auditSourceOf } from './route-audit.js';
import { type AnyRoute, defineRoute } from './route-definition.js';
import { actingAccount, actingOrgId } from './route-principal.js';

/** Path of one node of a profile. */
const NodePath = z.object({ id: ProfilePath.shape.id, nodeId: z.uuid({ error: 'must be a uuid' }) });

const NO_STORE = { 'Cache-Control': 'no-store' };

/** A profile's self-hosted nodes, owner side (spec 4.13, 5.4; ROUTES.md). */
export function nodeRoutes(nodes: NodeService): AnyRoute[] {
  const orgOf = actingOrgId;
  return [
    defineRoute({
      method: 'get',
      path: '/v1/profiles/{id}/nodes',
      operationId: 'listNodes',
      summary: 'A profile’s self-hosted nodes',
      description:
        'Newest first, revoked nodes included. `connected` is true while the node’s link is open on the API server that answers.',
      tags: ['nodes'],
      auth: 'account',
      scope: 'profiles:read',
      request: { params: ProfilePath, query: PageQuery },
      responses: { 200: { description: 'Nodes, newest first.', schema: NodeList } },
      handler: async ({ principal, params, query }) => {
        const page = await nodes.list(orgOf(principal), params.id, query.limit, query.cursor);
        return {
          status: 200,
          body: { nodes: page.nodes.map((node) => nodes.view(node)), next_cursor: page.next_cursor },
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/profiles/{id}/nodes',
      operationId: 'createNode',
      summary: 'Create a node and its one-time enrolment code',
      description:
        'The enrolment code is shown once and works once, for 24 hours: a node exchanges it at POST /v1/nodes/enrol for its node token. A suspended profile is 409 profile_suspended; an account whose address is not verified is 403 email_unverified. The profile’s version does not change. A replay with the same Idempotency-Key answers the same code (kept sealed with the server key meanwhile), to the same session or API token only: another credential reusing the key is 409 idempotency_key_reused.',
      tags: ['nodes'],
      auth: 'account',
      scope: 'profiles:write',
      idempotent: true,
      answersSecret: true,
      request: { params: ProfilePath, body: NodeCreate },
      errorStatuses: [409],
      responses: {
        201: {
          description: 'The pending node and its enrolment code.',
          schema: NodeCreated,
          headers: { Location: { description: 'The node’s address.', schema: { type: 'string' } } },
        },
      },
      handler: async (context) => {
        const { principal, params, body } = context;
        const created = await nodes.create(actingAccount(principal), params.id, body, auditSourceOf(context));
        return {
          status: 201,
          body: { node: nodes.view(created.node), enrolment_code: created.enrolmentCode },
          headers: { Location: `/v1/profiles/${params.id}/nodes/${created.node.id}`, ...NO_STORE },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/profiles/{id}/nodes/{nodeId}',
      operationId: 'getNode',
      summary: 'One node of a profile',
      tags: ['nodes'],
      auth: 'account',
      scope: 'profiles:read',
      request: { params: NodePath },
      responses: { 200: { description: 'The node.', schema: Node } },
      handler: async ({ principal, params }) => ({
        status: 200,
        body: nodes.view(await nodes.get(orgOf(principal), params.id, params.nodeId)),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/profiles/{id}/nodes/{nodeId}',
      operationId: 'revokeNode',
      summary: 'Revoke a node',
      description:
        'For good: the node’s token answers 401 node_revoked from then on and its link is closed. Revoking a revoked node changes nothing.',
      tags: ['nodes'],
      auth: 'account',
      scope: 'profiles:write',
      request: { params: NodePath },
      responses: { 204: { description: 'Revoked.' } },
      handler: async (context) => {
        const { principal, params } = context;
        await nodes.revoke(orgOf(principal), params.id, params.nodeId, auditSourceOf(context));
        return { status: 204 };
      },
    }),
  ];
}
