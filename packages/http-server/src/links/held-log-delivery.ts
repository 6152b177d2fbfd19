import type { Clock, NodeLogHoldStore } from '@svc/domain';
import type { Logger } from 'pino';
import type { NodeLink } from './node-link.js';

/** Held rows per `held_logs` message. */
const HELD_BATCH = 500;
/** How long rows sent on a link stay claimed by it while they await its acknowledgement. */
const CLAIM_MS = 10 * 60_000;

/**
 * Delivers the offline hold to the links this server holds (spec 2.3 node_queue_hours,
 * docs/node-link-protocol.md `held_logs`): one message at a time per link, the next after the node
 * acknowledged the previous; rows are deleted only when acknowledged, and a link that closes first gives its
 * claimed rows back for the next link.
 */
export class HeldLogDelivery {
  /** The last seq sent on a link and not acknowledged yet. */
  private readonly awaiting = new Map<NodeLink, string>();
  /** Links with a claim in flight, so that two offers never send the same link twice. */
  private readonly claiming = new Set<NodeLink>();

  constructor(private readonly deps: { store: NodeLogHoldStore; clock: Clock; logger: Logger }) {}

  /** Sends the link the profile's next held rows, unless a message awaits its acknowledgement. */
  offer(link: NodeLink): void {
    this.send(link).catch((error: unknown) => {
      this.deps.logger.warn({ err: error, nodeId: link.nodeId }, 'could not deliver held logs');
    });
  }

  /** The node kept the rows up to `seq`: they are deleted, and the next ones sent once all sent are kept. */
  async acknowledged(link: NodeLink, seq: string): Promise<void> {
    const last = this.awaiting.get(link);
    if (last === undefined) return;
    await this.deps.store.release(link.profileId, link.linkId, seq);
    if (BigInt(seq) < BigInt(last)) return;
    this.awaiting.delete(link);
    this.offer(link);
  }

  /** The link closed: what it was sent and did not acknowledge goes to the next link. */
  async closed(link: NodeLink): Promise<void> {
    this.awaiting.delete(link);
    await this.deps.store.unclaim(link.linkId);
  }

  private async send(link: NodeLink): Promise<void> {
    if (!link.ready || this.awaiting.has(link) || this.claiming.has(link)) return;
    this.claiming.add(link);
    try {
      const now = this.deps.clock.now();
      const rows = await this.deps.store.claim(
        link.profileId,
        link.linkId,
        now,
        new Date(now.getTime() + CLAIM_MS),
        HELD_BATCH,
      );
      const last = rows.at(-1);
      if (last === undefined) return;
      if (!link.open) {
        await this.deps.store.unclaim(link.linkId);
        return;
      }
      this.awaiting.set(link, last.seq);
      link.send({ type: 'held_logs', rows });
    } finally {
      this.claiming.delete(link);
    }
  }
}
