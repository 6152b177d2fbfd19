import {
  type AuthenticatedNode,
  DomainError,
  NODE_LINK_HEARTBEAT_SECONDS,
  NODE_LINK_PROTOCOL_VERSION,
  Node,
  NodeEnrol,
  NodeEnrolled,
  NodeLinkInfo,
  NodeProfileDocument,
  type NodeService,
  NodeTokenRotated,
} from '@svc/domain';
import { deprecationHeaders } from '../http/deprecation.js';
import type { Principal } from '../http/principal.js';
import { auditSourceOf } from './route-audit.js';
import { type AnyRoute, defineRoute } from './route-definition.js';

const NO_STORE = { 'Cache-Control': 'no-store' };

/** `lists_url` and `lists_sha256` of the node profile document (spec 9): always sent, so always announced. */
const PROFILE_DOCUMENT_DEPRECATION = deprecationHeaders([
  { deprecatedOn: '2026-09-30', sunset: '2027-03-31' },
]);

const DEPRECATION_HEADERS = {
  Deprecation: {
    description: 'RFC 9745: the document carries the deprecated lists_url and lists_sha256.',
    schema: { type: 'string' as const },
  },
  Sunset: {
    description: 'RFC 8594: when lists_url and lists_sha256 go.',
    schema: { type: 'string' as const },
  },
};

/** The node of a node route; the pipeline admits node principals only. */
function actingNode(principal: Principal | null): AuthenticatedNode {
  if (principal?.node === undefined)
    throw new DomainError('unauthenticated', 'This route takes a node token.');
  return principal.node;
}

/**
 * The node side (spec 4.13, 5.1; ROUTES.md): enrolment with a one-time code, the node's own identity, its
 * revocation, token rotation and its signed profile document. Node tokens are accepted here and by the link
 * only. The link itself (GET /v1/nodes/self/link) is a WebSocket described in docs/node-link-protocol.md.
 */
export function nodeSelfRoutes(nodes: NodeService, baseUrl: string): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/nodes/enrol',
      operationId: 'enrolNode',
      summary: 'Exchange an enrolment code for a node token',
      description:
        'The code is one-time: an unknown code is 400 invalid_token, a used one 400 token_used, one older than 24 hours 400 token_expired. The answer holds the node token (shown once) and `profile_pubkey`, the keys profile documents are signed with, the signing key first.',
      tags: ['nodes'],
      auth: 'none',
      request: { body: NodeEnrol },
      errorStatuses: [400],
      responses: {
        201: {
          description: 'The enrolled node, its token and the profile signing keys.',
          schema: NodeEnrolled,
          headers: { Location: { description: 'The node’s own address.', schema: { type: 'string' } } },
        },
      },
      handler: async ({ body, clientIp, requestId }) => {
        const enrolled = await nodes.enrol(body, { clientIp, requestId });
        return {
          status: 201,
          body: {
            node: nodes.view(enrolled.node),
            node_token: enrolled.nodeToken,
            profile_pubkey: nodes.profileKeys(),
          },
          headers: { Location: '/v1/nodes/self', ...NO_STORE },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/nodes/self',
      operationId: 'getNodeSelf',
      summary: 'The calling node',
      tags: ['nodes'],
      auth: 'node',
      responses: { 200: { description: 'The node.', schema: Node } },
      handler: async ({ principal }) => ({ status: 200, body: nodes.view(actingNode(principal).node) }),
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/nodes/self',
      operationId: 'revokeNodeSelf',
      summary: 'Revoke the calling node',
      description: 'For good: its token answers 401 node_revoked from then on and its link is closed.',
      tags: ['nodes'],
      auth: 'node',
      responses: { 204: { description: 'Revoked.' } },
      handler: async (context) => {
        await nodes.revokeSelf(actingNode(context.principal).node.id, auditSourceOf(context));
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/nodes/self/token',
      operationId: 'rotateNodeToken',
      summary: 'Rotate the node token',
      description:
        'Answers a new token. The token that asked keeps working until 600 s after the first request made with the new one (`previous_valid_s`). Asking with a token that a rotation already replaced is 409 node_token_superseded.',
      tags: ['nodes'],
      auth: 'node',
      errorStatuses: [409],
      responses: { 200: { description: 'The new token.', schema: NodeTokenRotated } },
      handler: async (context) => ({
        status: 200,
        body: await nodes.rotate(actingNode(context.principal), auditSourceOf(context)),
        headers: NO_STORE,
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/nodes/self/profile',
      operationId: 'getNodeProfile',
      summary: 'The node’s profile document',
      description:
        'The profile the node applies. When the server signs profiles, `profile_signature` is a base64 Ed25519 signature, by the key `profile_key_id` (public key `profile_pubkey`), over the UTF-8 bytes of `svc-profile-v1\\n` + profile id + `\\n` + version (decimal) + `\\n` + the compact canonical JSON (object keys sorted at every depth, no whitespace) of the document without profile_signature, profile_key_id and profile_pubkey. The deprecated `lists_url` and `lists_sha256` are always sent, so the answer always carries Deprecation and Sunset.',
      tags: ['nodes'],
      auth: 'node',
      responses: {
        200: {
          description: 'The profile document.',
          schema: NodeProfileDocument,
          headers: DEPRECATION_HEADERS,
        },
      },
      handler: async ({ principal }) => ({
        status: 200,
        body: await nodes.profileDocument(actingNode(principal).node),
        headers: { ...PROFILE_DOCUMENT_DEPRECATION, 'Cache-Control': 'no-store' },
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/nodes/self/link',
      operationId: 'openNodeLink',
      summary: 'The node’s link (WebSocket)',
      description:
        'With `Upgrade: websocket`, opens the link, authenticated by the node token: JSON messages of protocol version 1 (hello, welcome, heartbeats, profile_changed, relayed queries and their answers, cancel, log batches), described in docs/node-link-protocol.md. A refused upgrade answers a problem document (401 unauthenticated or node_revoked). Without the upgrade, 200 says how to open it.',
      tags: ['nodes'],
      auth: 'node',
      responses: {
        101: { description: 'Switching Protocols: the link is open.' },
        200: { description: 'How to open the link (a request without an upgrade).', schema: NodeLinkInfo },
      },
      handler: async () => {
        const url = new URL('/v1/nodes/self/link', `${baseUrl.replace(/\/+$/, '')}/`);
        url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
        return {
          status: 200,
          body: {
            protocol: NODE_LINK_PROTOCOL_VERSION,
            heartbeat_s: NODE_LINK_HEARTBEAT_SECONDS,
            link_url: url.toString(),
          },
        };
      },
    }),
  ];
}
