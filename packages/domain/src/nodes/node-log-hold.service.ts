import type { ProfileRecord } from '../profiles/profile.records.js';
import type { QueryLogRow } from '../query-log/query-log-row.js';
import type { Clock } from '../shared/clock.ports.js';
import { NODE_LINK_HEARTBEAT_SECONDS } from './node-link.protocol.js';
import type { NodeLogHoldStore } from './node-log-hold.ports.js';
import { nodeLogRowOf } from './node-log-row.js';

/** A link not heard for three heartbeat intervals is gone even if no server recorded its close (a dead server). */
const LINK_SILENCE_MS = 3 * NODE_LINK_HEARTBEAT_SECONDS * 1000;
const HOUR_MS = 3_600_000;

/**
 * Decides which edge rows are held for a profile's nodes and holds them (spec 2.3 node_queue_hours): rows of a
 * `self-hosted` or `both` profile that logs, while it has enrolled nodes and none of them is online, for
 * node_queue_hours hours from when they are held; 0 holds nothing.
 */
export class NodeLogHoldService {
  constructor(private readonly deps: { store: NodeLogHoldStore; clock: Clock }) {}

  /** Are the profile's edge rows to be held now? */
  async holdsFor(profile: ProfileRecord): Promise<boolean> {
    const { log_destination: destination, logs_enabled: logs, node_queue_hours: hours } = profile.settings;
    if (destination !== 'self-hosted' && destination !== 'both') return false;
    if (!logs || profile.suspended || hours <= 0) return false;
    const now = this.deps.clock.now();
    const nodes = await this.deps.store.nodesOf(profile.id, new Date(now.getTime() - LINK_SILENCE_MS));
    return nodes.enrolled > 0 && nodes.online === 0;
  }

  /** Holds rows the edge recorded for the profile (in the order given). */
  async hold(profile: ProfileRecord, rows: readonly QueryLogRow[]): Promise<void> {
    if (rows.length === 0) return;
    const now = this.deps.clock.now();
    await this.deps.store.hold(
      profile.id,
      rows.map(nodeLogRowOf),
      now,
      new Date(now.getTime() + profile.settings.node_queue_hours * HOUR_MS),
    );
  }
}
