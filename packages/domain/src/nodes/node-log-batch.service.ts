import type { ProfileRecord } from '../profiles/profile.records.js';
import type { EdgeLogWriter } from '../query-log/edge-log-writer.ports.js';
import type { QueryLogRow } from '../query-log/query-log-row.js';
import type { Clock } from '../shared/clock.ports.js';
import type { LinkLogBatchAck, LogBatchRowError } from './node-link.protocol.js';
import type { BatchSender, NodeLogBatchLedger } from './node-log-batch.ports.js';
import { NodeLogRow, queryLogRowOfNode } from './node-log-row.js';

/**
 * How long a stored batch is remembered: a node resends an unacknowledged batch on its next link, so a resend
 * arriving later than this (a node offline for a week with unsettled batches) would be stored again.
 */
export const LOG_BATCH_LEDGER_DAYS = 7;

/** How long a claim protects a batch being written before another server may take it over. */
export const LOG_BATCH_CLAIM_LEASE_MS = 5 * 60_000;
/** Rows time-stamped later than this ahead of the server's clock are refused. */
const FUTURE_SLACK_MS = 60 * 60_000;
const DAY_MS = 86_400_000;
const MAX_ROW_ERRORS = 20;

/** What the service is built from. */
export interface NodeLogBatchDependencies {
  /** The ledger and the columnar store's writer; without them (no columnar store) the cloud keeps no rows. */
  storage: { ledger: NodeLogBatchLedger; writer: Pick<EdgeLogWriter, 'writeRows'> } | undefined;
  findProfile(orgId: string, profileId: string): Promise<ProfileRecord | null>;
  clock: Clock;
}

/** The acknowledgement's fields. */
export type LogBatchSettlement = Omit<LinkLogBatchAck, 'type' | 'id'>;

/** Does the cloud keep a node's rows of this profile? Only `both` does (spec 1.6, 2.3), while logging. */
export function keepsNodeRowsInCloud(profile: ProfileRecord): boolean {
  return profile.settings.log_destination === 'both' && profile.settings.logs_enabled && !profile.suspended;
}

/**
 * The profile's logging settings applied to a node's row as the edge applies them to its own: no client
 * address without log_client_ip, no name (nor rule text, operator blocks aside) without log_domains.
 */
function asLogged(row: QueryLogRow, profile: ProfileRecord): QueryLogRow {
  const { log_client_ip: keepIp, log_domains: keepDomains } = profile.settings;
  if (keepIp && keepDomains) return row;
  return {
    ...row,
    clientIp: keepIp ? row.clientIp : '',
    qname: keepDomains ? row.qname : '',
    reasonRule: keepDomains || row.operatorCode !== '' ? row.reasonRule : '',
  };
}

/**
 * Log batches of self-hosted nodes (docs/node-link-protocol.md `log_batch`): each row checked, all or nothing;
 * for a `both` profile stored in the columnar query log through the edge writer, once per (node, batch id).
 * The derived columns, country and owner are not stored: they are computed when rows are read, identically
 * for cloud and node rows.
 */
export class NodeLogBatchService {
  constructor(private readonly deps: NodeLogBatchDependencies) {}

  /**
   * Settles one batch. Throws only when the write itself failed (the claim is released first, so the batch
   * sent again is written); the caller then answers `rejected` with `storage_unavailable`.
   */
  async receive(sender: BatchSender, batchId: string, raw: readonly unknown[]): Promise<LogBatchSettlement> {
    const now = this.deps.clock.now();
    const profile = await this.deps.findProfile(sender.orgId, sender.profileId);
    const retentionDays = profile?.settings.retention_days ?? 90;
    const parsed = this.parse(raw, now, retentionDays);
    if ('errors' in parsed)
      return { accepted: 0, outcome: 'rejected', reason: 'validation_failed', errors: parsed.errors };
    const storage = this.deps.storage;
    if (profile === null || !keepsNodeRowsInCloud(profile) || storage === undefined)
      return { accepted: 0, outcome: 'not_kept' };
    if (parsed.rows.length === 0) return { accepted: 0, outcome: 'stored' };

    const claim = await storage.ledger.claim(
      sender.nodeId,
      batchId,
      parsed.rows.length,
      now,
      new Date(now.getTime() - LOG_BATCH_CLAIM_LEASE_MS),
    );
    if (claim.state === 'stored') return { accepted: claim.rows, outcome: 'duplicate' };
    if (claim.state === 'in_progress')
      return { accepted: 0, outcome: 'rejected', reason: 'batch_in_progress' };
    const rows = parsed.rows.map((row) =>
      asLogged(queryLogRowOfNode(row, sender.nodeId, sender.profileId), profile),
    );
    try {
      await storage.writer.writeRows(rows, profile.settings.retention_days);
    } catch (error) {
      await storage.ledger.release(sender.nodeId, batchId);
      throw error;
    }
    await storage.ledger.markStored(sender.nodeId, batchId, this.deps.clock.now());
    return { accepted: rows.length, outcome: 'stored' };
  }

  /** Every row as a NodeLogRow, or the first refused ones. */
  private parse(
    raw: readonly unknown[],
    now: Date,
    retentionDays: number,
  ): { rows: NodeLogRow[] } | { errors: LogBatchRowError[] } {
    const rows: NodeLogRow[] = [];
    const errors: LogBatchRowError[] = [];
    const oldest = now.getTime() - retentionDays * DAY_MS;
    const newest = now.getTime() + FUTURE_SLACK_MS;
    raw.forEach((candidate, index) => {
      if (errors.length >= MAX_ROW_ERRORS) return;
      const result = NodeLogRow.safeParse(candidate);
      if (!result.success) {
        const issue = result.error.issues[0];
        errors.push({ row: index, field: issue?.path.join('.') ?? '', message: issue?.message ?? 'invalid' });
        return;
      }
      const ts = Date.parse(result.data.ts);
      if (ts < oldest || ts > newest) {
        errors.push({
          row: index,
          field: 'ts',
          message: `must lie within the profile's retention (${retentionDays} days) and not in the future`,
        });
        return;
      }
      rows.push(result.data);
    });
    return errors.length > 0 ? { errors } : { rows };
  }
}
