import type {
  Node,
  NodeEnrol,
  NodeEnrolled,
  NodeLinkInfo,
  NodeProfileDocument,
  NodeProfileLists,
  NodeTokenRotated,
} from '@svc/domain';
import type { Transport } from '../transport.js';

/**
 * The calling node, `/v1/nodes/self` (spec 4.13, 5.1): for a client created with a node token (`svcnode_…`),
 * which node endpoints and the link alone accept.
 */
export class NodeSelfResource {
  constructor(private readonly transport: Transport) {}

  /** GET /v1/nodes/self. */
  async get(): Promise<Node> {
    return (await this.transport.send<Node>({ method: 'GET', path: '/v1/nodes/self' })).data;
  }

  /** DELETE /v1/nodes/self: the node revokes itself; its token answers 401 node_revoked from then on. */
  async revoke(): Promise<void> {
    await this.transport.send({ method: 'DELETE', path: '/v1/nodes/self' });
  }

  /**
   * POST /v1/nodes/self/token: a new token. The token of this client keeps working until 600 s after the first
   * request made with the new one; create a client with the new token. Not retried: a repeat would rotate again.
   */
  async rotateToken(): Promise<NodeTokenRotated> {
    return (await this.transport.send<NodeTokenRotated>({ method: 'POST', path: '/v1/nodes/self/token' }))
      .data;
  }

  /**
   * GET /v1/nodes/self/profile: the profile document, with its signature fields when the server signs. Verify
   * it (the node-agent-kit's `verifyProfileDocument`) before applying it.
   */
  async profile(): Promise<NodeProfileDocument> {
    return (await this.transport.send<NodeProfileDocument>({ method: 'GET', path: '/v1/nodes/self/profile' }))
      .data;
  }

  /**
   * GET /v1/nodes/self/lists: the manifest of the profile's compiled lists (the `lists` part of the profile
   * document, unsigned here): each list's version, artifact digest, size and download address.
   */
  async lists(): Promise<NodeProfileLists> {
    return (await this.transport.send<NodeProfileLists>({ method: 'GET', path: '/v1/nodes/self/lists' }))
      .data;
  }

  /**
   * GET /v1/nodes/self/lists/{sha256}: a compiled list of the manifest, as its text (`svc-list 1`, then one
   * entry a line). Verify its SHA-256 against the manifest before use. Throws ApiError 404 for a digest the
   * manifest does not name. The node-agent-kit streams large lists to disk instead.
   */
  async listArtifact(sha256: string): Promise<string> {
    return (
      await this.transport.send<string>({
        method: 'GET',
        path: `/v1/nodes/self/lists/${encodeURIComponent(sha256)}`,
        responseType: 'text',
      })
    ).data;
  }

  /** GET /v1/nodes/self/link without an upgrade: the link's protocol version, heartbeat and address. */
  async link(): Promise<NodeLinkInfo> {
    return (await this.transport.send<NodeLinkInfo>({ method: 'GET', path: '/v1/nodes/self/link' })).data;
  }

  /**
   * The address of GET /v1/nodes/self/link, the node's WebSocket (ws: or wss:), to open with the node token as
   * `Authorization: Bearer`; docs/node-link-protocol.md describes its messages. Makes no request.
   */
  linkUrl(): string {
    const url = new URL('/v1/nodes/self/link', `${this.transport.options.baseUrl.replace(/\/+$/, '')}/`);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    return url.toString();
  }
}

/** Self-hosted nodes, node side, `/v1/nodes` (spec 4.13). */
export class NodesResource {
  /** The calling node (a client with a node token). */
  readonly self: NodeSelfResource;

  constructor(private readonly transport: Transport) {
    this.self = new NodeSelfResource(transport);
  }

  /**
   * POST /v1/nodes/enrol: exchanges a one-time enrolment code for the node token (shown once) and the profile
   * signing keys. Needs no credential. Throws ApiError 400 `invalid_token`, `token_used` or `token_expired`.
   */
  async enrol(request: NodeEnrol): Promise<NodeEnrolled> {
    return (
      await this.transport.send<NodeEnrolled>({
        method: 'POST',
        path: '/v1/nodes/enrol',
        body: request,
        anonymous: true,
      })
    ).data;
  }
}
