import type { Node, NodeCreated } from '@svc/domain';
import { listPages } from '../../list-pages.js';
import type { Paginator } from '../../pagination.js';
import type { CreateOptions, Transport } from '../../transport.js';
import { profilePath } from './profile-path.js';

/** Options of {@link ProfileNodesResource.list}. */
export interface NodeListOptions {
  /** Page size, 1 to 200 (default 50); iteration still returns every node, page after page. */
  limit?: number;
}

/**
 * A profile's self-hosted nodes, owner side, `/v1/profiles/{id}/nodes` (spec 4.13, 5.4). Creating a node
 * answers its one-time enrolment code (24 hours); the node exchanges it with `client.nodes.enrol`.
 */
export class ProfileNodesResource {
  constructor(private readonly transport: Transport) {}

  /** GET …/nodes (scope profiles:read), newest first, auto-paging. */
  list(id: string, options: NodeListOptions = {}): Paginator<Node> {
    return listPages<Node>(this.transport, profilePath(id, 'nodes'), 'nodes', { limit: options.limit });
  }

  /**
   * POST …/nodes (scope profiles:write): a pending node and its enrolment code, shown this once (a retry with
   * the same idempotency key answers the same code). Throws ApiError 409 `profile_suspended` on a suspended
   * profile, 403 `email_unverified` until the account's address is verified.
   */
  async create(id: string, request: { name: string }, options: CreateOptions = {}): Promise<NodeCreated> {
    return (
      await this.transport.send<NodeCreated>({
        method: 'POST',
        path: profilePath(id, 'nodes'),
        body: request,
        idempotent: true,
        idempotencyKey: options.idempotencyKey,
      })
    ).data;
  }

  /** GET …/nodes/{nodeId} (scope profiles:read). */
  async get(id: string, nodeId: string): Promise<Node> {
    return (await this.transport.send<Node>({ method: 'GET', path: nodePath(id, nodeId) })).data;
  }

  /** DELETE …/nodes/{nodeId} (scope profiles:write): revokes the node for good. */
  async revoke(id: string, nodeId: string): Promise<void> {
    await this.transport.send({ method: 'DELETE', path: nodePath(id, nodeId) });
  }
}

function nodePath(id: string, nodeId: string): string {
  return profilePath(id, 'nodes', encodeURIComponent(nodeId));
}
