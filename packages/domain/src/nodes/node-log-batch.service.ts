import type { ProfileRecord } from '../profiles/profile.records.js';
import type { EdgeLogWriter } from '../query-log/edge-log-writer.ports.js';
import type { QueryLogRow } from '../query-log/query-log-row.js';
import type { Clock } from '../shared/clock.ports.js';
import type { LinkLogBatchAck, LogBatchRefusedRow } from './node-link.protocol.js';
import type { BatchSender, NodeLogBatchLedger } from './node-log-batch.ports.js';
import {
  NODE_LOG_ANSWER_IPS_KEPT,
  NodeLogBatchRow,
  type NodeLogRow,
  queryLogRowOfNode,
} from './node-log-row.js';

/**
 * How long a stored batch is remembered: a node resends an unacknowledged batch on its next link, so a resend
 * arriving later than this (a node offline for a week with unsettled batches) would be stored again.
 */
export const LOG_BATCH_LEDGER_DAYS = 7;

/** How long a claim protects a batch being written before another server may take it over. */
const LOG_BATCH_CLAIM_LEASE_MS = 5 * 60_000;
/** Rows time-stamped later than this ahead of the server's clock are refused. */
const FUTURE_SLACK_MS = 60 * 60_000;
const DAY_MS = 86_400_000;

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
function keepsNodeRowsInCloud(profile: ProfileRecord): boolean {
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
 * Log batches of self-hosted nodes (docs/node-link-protocol.md `log_batch`): each row checked on its own, a bad
 * row refused without its batch (a node cannot mend a row it logged, so refusing the batch would only lose the
 * good rows with it); for a `both` profile the others stored in the columnar query log through the edge writer,
 * once per (node, batch id), answers cut to {@link NODE_LOG_ANSWER_IPS_KEPT} addresses.
 * The derived columns, country and owner are not stored: they are computed when rows are read, identically
 * for cloud and node rows.
 */
export class NodeLogBatchService {
  constructor(private readonly deps: NodeLogBatchDependencies) {}

  /**
   * Settles one batch: refused rows are named in `refused` whatever the outcome. Throws only when the write
   * itself failed (the claim is released first, so the batch
   * sent again is written); the caller then answers `rejected` with `storage_unavailable`.
   */
  async receive(sender: BatchSender, batchId: string, raw: readonly unknown[]): Promise<LogBatchSettlement> {
    const now = this.deps.clock.now();
    const profile = await this.deps.findProfile(sender.orgId, sender.profileId);
    const retentionDays = profile?.settings.retention_days ?? 90;
    const { rows: parsedRows, refused, truncated } = this.parse(raw, now, retentionDays);
    const checked = {
      ...(refused.length > 0 ? { refused } : {}),
      ...(truncated > 0 ? { truncated } : {}),
    };
    const storage = this.deps.storage;
    if (profile === null || !keepsNodeRowsInCloud(profile) || storage === undefined)
      return { accepted: 0, outcome: 'not_kept', ...checked };
    if (parsedRows.length === 0) return { accepted: 0, outcome: 'stored', ...checked };

    const claim = await storage.ledger.claim(
      sender.nodeId,
      batchId,
      parsedRows.length,
      now,
      new Date(now.getTime() - LOG_BATCH_CLAIM_LEASE_MS),
    );
    if (claim.state === 'stored') return { accepted: claim.rows, outcome: 'duplicate', ...checked };
    if (claim.state === 'in_progress')
      return { accepted: 0, outcome: 'rejected', reason: 'batch_in_progress' };
    const rows = parsedRows.map((row) =>
      asLogged(queryLogRowOfNode(row, sender.nodeId, sender.profileId), profile),
    );
    try {
      await storage.writer.writeRows(rows, profile.settings.retention_days);
    } catch (error) {
      await storage.ledger.release(sender.nodeId, batchId);
      throw error;
    }
    await storage.ledger.markStored(sender.nodeId, batchId, this.deps.clock.now());
    return { accepted: rows.length, outcome: 'stored', ...checked };
  }

  /** The rows kept (answers cut to the cap), the rows refused with why, and how many answers were cut. */
  private parse(
    raw: readonly unknown[],
    now: Date,
    retentionDays: number,
  ): { rows: NodeLogRow[]; refused: LogBatchRefusedRow[]; truncated: number } {
    const rows: NodeLogRow[] = [];
    const refused: LogBatchRefusedRow[] = [];
    let truncated = 0;
    const oldest = now.getTime() - retentionDays * DAY_MS;
    const newest = now.getTime() + FUTURE_SLACK_MS;
    raw.forEach((candidate, index) => {
      const result = NodeLogBatchRow.safeParse(candidate);
      if (!result.success) {
        const issue = result.error.issues[0];
        refused.push({ index, field: issue?.path.join('.') ?? '', reason: issue?.message ?? 'invalid' });
        return;
      }
      const ts = Date.parse(result.data.ts);
      if (ts < oldest || ts > newest) {
        refused.push({
          index,
          field: 'ts',
          reason: `must lie within the profile's retention (${retentionDays} days) and not in the future`,
        });
        return;
      }
      const answers = result.data.answer_ips;
      if (answers.length > NODE_LOG_ANSWER_IPS_KEPT) {
        truncated += 1;
        rows.push({ ...result.data, answer_ips: answers.slice(0, NODE_LOG_ANSWER_IPS_KEPT) });
      } else rows.push(result.data);
    });
    return { rows, refused, truncated };
  }
}
