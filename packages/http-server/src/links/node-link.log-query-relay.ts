import {
  type DeviceStore,
  DomainError,
  emptyResult,
  LOG_COLUMNS,
  type LogQuery,
  type LogQueryRelay,
  logRowCells,
  type QueryLogRow,
  QueryResult,
  queryLogRowOfNode,
  type RelayedResult,
} from '@svc/domain';
import type { NodeLinkHub } from './node-link-hub.js';

/** The parameters of a relayed query as the node receives them (docs/node-link-protocol.md, `query`). */
export function relayedParameters(query: LogQuery): Record<string, unknown> {
  return {
    profile_id: query.profileId,
    from: query.range.from?.toISOString() ?? null,
    to: query.range.to.toISOString(),
    devices: query.filters.devices,
    statuses: query.filters.statuses,
    qname: query.filters.qname,
    qname_match: query.filters.qnameMatch,
    qtypes: query.filters.qtypes,
    lists: query.filters.lists,
    client_ip: query.filters.clientIp,
    limit: query.limit,
    bucket_s: query.bucketSeconds,
    after: query.position === null ? null : { ts: query.position.ts, row_id: query.position.rowId },
  };
}

/**
 * Relays log and analytics queries of self-hosted profiles to their node over the link held by this server
 * (spec 4.6, 7, 8): 503 node_offline with Retry-After when none is connected, 503 node_busy beyond four in
 * flight, 504 node_timeout after 10 s, 501 shape_unsupported for a node too old, 502 node_error when the node
 * fails, drops the link mid-query or answers something that is not a query result. Partial answers keep their
 * reason; while a node that dropped its link is expected back (a minute), the answer is partial with
 * node_reconnecting and no rows. The node's `next_after` becomes the position the API seals into next_cursor.
 */
export class NodeLinkLogQueryRelay implements LogQueryRelay {
  constructor(
    private readonly hub: NodeLinkHub,
    private readonly devices: Pick<DeviceStore, 'find'>,
  ) {}

  async answer(query: LogQuery, orgId: string): Promise<RelayedResult> {
    let relayed: Awaited<ReturnType<NodeLinkHub['relay']>>;
    try {
      relayed = await this.hub.relay(orgId, query.profileId, query.shape, relayedParameters(query));
    } catch (error) {
      if (
        error instanceof DomainError &&
        error.code === 'node_offline' &&
        this.hub.reconnecting(orgId, query.profileId)
      ) {
        // Spec 2.11: no rows while the node reconnects, and a tail keeps its cursor.
        return {
          ...emptyResult(query.shape, 'node'),
          partial: true,
          partial_reason: 'node_reconnecting',
          nextPosition: query.position,
        };
      }
      throw error;
    }
    const { nodeId, result } = relayed;
    const logRows =
      (query.shape === 'tail' || query.shape === 'search') && result.log_rows !== undefined
        ? result.log_rows.map((row) => queryLogRowOfNode(row, nodeId, query.profileId))
        : undefined;
    const displayNames =
      logRows === undefined ? new Map<string, string>() : await this.displayNames(query.profileId, logRows);
    const parsed = QueryResult.safeParse({
      shape: query.shape,
      source: 'node',
      node: nodeId,
      columns: logRows === undefined ? result.columns : LOG_COLUMNS,
      rows: logRows === undefined ? result.rows : logRows.map((row) => logRowCells(row, displayNames)),
      next_cursor: null,
      partial: result.partial,
      ...(result.partial && result.partial_reason !== undefined
        ? { partial_reason: result.partial_reason }
        : {}),
    });
    if (!parsed.success) {
      throw new DomainError(
        'node_error',
        'This profile’s node answered something that is not a query result.',
        {
          cause: parsed.error,
        },
      );
    }
    const after = result.next_after ?? null;
    return { ...parsed.data, nextPosition: after === null ? null : { ts: after.ts, rowId: after.row_id } };
  }

  /** Display names of the rows' devices, from the device registry (spec 2.11 `device_name`). */
  private async displayNames(profileId: string, rows: readonly QueryLogRow[]): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    for (const id of new Set(rows.map((row) => row.deviceId).filter((id) => id !== ''))) {
      const device = await this.devices.find(profileId, id);
      if (device?.displayName != null) names.set(id, device.displayName);
    }
    return names;
  }
}
