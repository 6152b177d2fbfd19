import type { HeldLogRow, NodeLogHoldStore, NodeLogRow } from '@svc/domain';
import type { MemoryNodeLinks } from './memory.node.store.js';

interface HeldEntry {
  seq: bigint;
  profileId: string;
  row: NodeLogRow;
  expiresAt: Date;
  claimedBy: string | null;
  claimedUntil: Date | null;
}

/**
 * The offline hold of an engine-free server, with the rules of the PostgreSQL one (node_log_hold): rows kept in
 * order per profile until a link of one of its nodes claims and acknowledges them or they expire; a claim
 * ends with its link or its lease. Link state lives with the nodes.
 */
export class MemoryNodeLogHoldStore implements NodeLogHoldStore {
  private held: HeldEntry[] = [];
  private nextSeq = 1n;

  constructor(private readonly links: MemoryNodeLinks) {}

  async nodesOf(profileId: string, heardAfter: Date): Promise<{ enrolled: number; online: number }> {
    const nodes = this.links.enrolledOf(profileId);
    const online = nodes.filter(
      (node) => node.linkId !== null && node.linkSeenAt !== null && node.linkSeenAt > heardAfter,
    );
    return { enrolled: nodes.length, online: online.length };
  }

  async linkOpened(nodeId: string, linkId: string, at: Date): Promise<void> {
    this.links.opened(nodeId, linkId, at);
  }

  async linkClosed(nodeId: string, linkId: string): Promise<void> {
    this.links.closed(nodeId, linkId);
  }

  async hold(profileId: string, rows: readonly NodeLogRow[], _heldAt: Date, expiresAt: Date): Promise<void> {
    for (const row of rows) {
      this.held.push({
        seq: this.nextSeq++,
        profileId,
        row: structuredClone(row),
        expiresAt: new Date(expiresAt),
        claimedBy: null,
        claimedUntil: null,
      });
    }
  }

  async claim(
    profileId: string,
    linkId: string,
    now: Date,
    claimUntil: Date,
    limit: number,
  ): Promise<HeldLogRow[]> {
    const claimed = this.held
      .filter(
        (entry) =>
          entry.profileId === profileId &&
          entry.expiresAt > now &&
          (entry.claimedBy === null ||
            entry.claimedBy === linkId ||
            (entry.claimedUntil !== null && entry.claimedUntil <= now)),
      )
      .slice(0, limit);
    for (const entry of claimed) {
      entry.claimedBy = linkId;
      entry.claimedUntil = new Date(claimUntil);
    }
    return claimed.map((entry) => ({ seq: String(entry.seq), row: structuredClone(entry.row) }));
  }

  async release(profileId: string, linkId: string, seq: string): Promise<number> {
    const upTo = BigInt(seq);
    const before = this.held.length;
    this.held = this.held.filter(
      (entry) => !(entry.profileId === profileId && entry.claimedBy === linkId && entry.seq <= upTo),
    );
    return before - this.held.length;
  }

  async unclaim(linkId: string): Promise<void> {
    for (const entry of this.held) {
      if (entry.claimedBy !== linkId) continue;
      entry.claimedBy = null;
      entry.claimedUntil = null;
    }
  }

  async expire(now: Date, limit: number): Promise<number> {
    const expired = new Set(
      this.held
        .filter((entry) => entry.expiresAt <= now)
        .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime())
        .slice(0, limit),
    );
    this.held = this.held.filter((entry) => !expired.has(entry));
    return expired.size;
  }

  async profilesHolding(profileIds: readonly string[], now: Date): Promise<string[]> {
    const wanted = new Set(profileIds);
    const holding = new Set<string>();
    for (const entry of this.held) {
      if (!wanted.has(entry.profileId) || entry.expiresAt <= now) continue;
      if (entry.claimedBy === null || (entry.claimedUntil !== null && entry.claimedUntil <= now))
        holding.add(entry.profileId);
    }
    return [...holding];
  }
}
