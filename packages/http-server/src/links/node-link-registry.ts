import { NodeLinkCloseCodes } from '@svc/domain';
import type { NodeLink } from './node-link.js';

/** How long a node whose link dropped counts as reconnecting rather than offline. */
const RECONNECT_WINDOW_MS = 60_000;

/**
 * The links this API server holds, one per node (a newer link replaces the older), and when each profile's last
 * ready link dropped: the bookkeeping of connections, apart from what the links say.
 */
export class NodeLinkRegistry {
  private readonly links = new Map<string, NodeLink>();
  /** When the last ready link of a profile dropped (monotonic ms), by `orgId/profileId`. */
  private readonly droppedAt = new Map<string, number>();

  /** Every link held, ready or not. */
  all(): IterableIterator<NodeLink> {
    return this.links.values();
  }

  /** The link a node holds, if any. */
  of(nodeId: string): NodeLink | undefined {
    return this.links.get(nodeId);
  }

  /** Holds a new link of its node, closing the one it replaces. */
  add(link: NodeLink): void {
    this.links.get(link.nodeId)?.socket.close(NodeLinkCloseCodes.replaced, 'replaced by a newer link');
    this.links.set(link.nodeId, link);
  }

  /**
   * A link closed with `code`: it is no longer held (unless a newer one replaced it already), and its profile is
   * reconnecting when it was ready and not closed for revocation.
   */
  closed(link: NodeLink, code: number): void {
    if (this.links.get(link.nodeId) !== link) return;
    this.links.delete(link.nodeId);
    // A link that dropped without the node being revoked is expected back: its profile is reconnecting.
    if (link.ready && code !== NodeLinkCloseCodes.revoked) {
      this.droppedAt.set(`${link.orgId}/${link.profileId}`, performance.now());
    }
  }

  /** A link was welcomed: its profile is connected again. */
  welcomed(link: NodeLink): void {
    this.droppedAt.delete(`${link.orgId}/${link.profileId}`);
  }

  isConnected(nodeId: string): boolean {
    return this.links.get(nodeId)?.ready === true;
  }

  /** The nodes holding a ready link. */
  connectedNodeIds(): string[] {
    return [...this.links.values()].filter((link) => link.ready).map((link) => link.nodeId);
  }

  /** The ready links, by profile id. */
  readyLinksByProfile(): Map<string, NodeLink[]> {
    const byProfile = new Map<string, NodeLink[]>();
    for (const link of this.links.values()) {
      if (!link.ready) continue;
      const links = byProfile.get(link.profileId) ?? [];
      links.push(link);
      byProfile.set(link.profileId, links);
    }
    return byProfile;
  }

  /** The ready link of one of the organisation's profile's nodes, if any. */
  linkOfProfile(orgId: string, profileId: string): NodeLink | undefined {
    for (const link of this.links.values()) {
      if (link.ready && link.profileId === profileId && link.orgId === orgId) return link;
    }
    return undefined;
  }

  /**
   * True while a profile's node is expected back: its link dropped less than a minute ago, not by revocation,
   * and no node of the profile is connected since (spec 2.11 `node_reconnecting`).
   */
  reconnecting(orgId: string, profileId: string): boolean {
    const dropped = this.droppedAt.get(`${orgId}/${profileId}`);
    if (dropped === undefined) return false;
    if (performance.now() - dropped < RECONNECT_WINDOW_MS) return true;
    this.droppedAt.delete(`${orgId}/${profileId}`);
    return false;
  }
}
