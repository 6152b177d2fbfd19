import { type NodeQueryAnswer, type QueryHandler, UnsupportedShapeError } from '@svc/node-agent-kit';
import type { QueryLogStore, RecordedQuery } from './query-log-store.js';
import { matchesQuery, type RelayedQuery, relayedQueryOf, withDefaultStatuses } from './relayed-query.js';

/** The shapes this node answers from its store; it reports them in its hello. */
export const ANSWERED_SHAPES = [
  'tail',
  'search',
  'counts_by_status',
  'top_domains',
  'top_blocked',
  'top_devices',
  'timeline',
  'top_reasons',
  'destinations',
  'top_pops',
] as const;

const STATUSES = ['allowed', 'blocked', 'rewritten', 'error'] as const;
type Column = NodeQueryAnswer['columns'][number];
const column = (name: string, type: string): Column => ({ name, type });
const COUNT = column('count', 'uint');

/**
 * Answers relayed log and analytics queries (spec 2.11, 4.6) from the node's own store. Tail and search send
 * the rows as recorded (`log_rows`), so that the API adds the derived columns exactly as for cloud rows; the
 * analytics shapes send their columns. `top_owners` needs the curated owner lists and is not answered (the API
 * then answers 501 shape_unsupported).
 */
export class RelayedQueryHandler implements QueryHandler {
  constructor(private readonly store: QueryLogStore) {}

  async answer(
    shape: string,
    params: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<NodeQueryAnswer> {
    const query = relayedQueryOf(params);
    signal.throwIfAborted();
    switch (shape) {
      case 'tail':
      case 'search':
        return this.logRows(query);
      case 'counts_by_status': {
        const counts = this.countBy(query, (row) => row.status);
        const shown =
          query.statuses.length === 0 ? STATUSES : STATUSES.filter((s) => query.statuses.includes(s));
        return table(
          [column('status', 'string'), COUNT],
          shown.map((status) => [status, counts.get(status) ?? 0]),
        );
      }
      case 'top_domains':
        return table(
          [column('qname', 'string'), COUNT],
          this.top(query, (row) => row.qname, query.limit),
        );
      case 'top_blocked': {
        if (query.statuses.length > 0 && !query.statuses.includes('blocked'))
          return table([column('qname', 'string'), COUNT], []);
        const blocked = { ...query, statuses: ['blocked'] };
        return table(
          [column('qname', 'string'), COUNT],
          this.top(blocked, (row) => row.qname, query.limit),
        );
      }
      case 'top_devices': {
        const names = new Map<string, string>();
        const rows = this.top(
          query,
          (row) => {
            if (row.device_id === '') return null;
            names.set(row.device_id, row.device_name);
            return row.device_id;
          },
          query.limit,
        );
        return table(
          [column('device_id', 'string'), column('device_name', 'string'), COUNT],
          rows.map(([id, count]) => [id, names.get(String(id)) ?? '', count]),
        );
      }
      case 'timeline':
        return this.timeline(query);
      case 'top_reasons':
        return this.topReasons(withDefaultStatuses(query, ['blocked', 'rewritten']));
      case 'destinations': {
        // Country and owner are left to the API, which fills both for a node that does not send them.
        const allowed = withDefaultStatuses(query, ['allowed']);
        const counts = new Map<string, number>();
        for (const row of this.matching(allowed))
          for (const ip of row.answer_ips) counts.set(ip, (counts.get(ip) ?? 0) + 1);
        return table([column('ip', 'string'), COUNT], ranked(counts, query.limit));
      }
      case 'top_pops':
        return table(
          [column('pop', 'string'), COUNT],
          this.top(query, (row) => row.pop, query.limit),
        );
      default:
        throw new UnsupportedShapeError(shape);
    }
  }

  private *matching(query: RelayedQuery): Generator<RecordedQuery> {
    for (const row of this.store.newestFirst()) if (matchesQuery(row, query)) yield row;
  }

  private logRows(query: RelayedQuery): NodeQueryAnswer {
    const rows: RecordedQuery[] = [];
    let more = false;
    for (const row of this.matching(query)) {
      if (rows.length === query.limit) {
        more = true;
        break;
      }
      rows.push(row);
    }
    const last = rows.at(-1);
    return {
      columns: [],
      rows: [],
      next_cursor: null,
      next_after: more && last !== undefined ? { ts: Date.parse(last.ts), row_id: last.row_id } : null,
      partial: false,
      log_rows: rows.map((row) => ({ ...row })),
    };
  }

  private countBy(query: RelayedQuery, key: (row: RecordedQuery) => string | null): Map<string, number> {
    const counts = new Map<string, number>();
    for (const row of this.matching(query)) {
      const value = key(row);
      if (value !== null) counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    return counts;
  }

  private top(query: RelayedQuery, key: (row: RecordedQuery) => string | null, limit: number): unknown[][] {
    return ranked(this.countBy(query, key), limit);
  }

  private timeline(query: RelayedQuery): NodeQueryAnswer {
    const width = query.bucketSeconds * 1000;
    const buckets = new Map<number, Map<string, number>>();
    for (const row of this.matching(query)) {
      const start = Math.floor(Date.parse(row.ts) / width) * width;
      const counts = buckets.get(start) ?? new Map<string, number>();
      counts.set(row.status, (counts.get(row.status) ?? 0) + 1);
      buckets.set(start, counts);
    }
    return table(
      [column('ts', 'time'), ...STATUSES.map((status) => column(status, 'uint'))],
      [...buckets.entries()]
        .sort(([a], [b]) => a - b)
        .map(([start, counts]) => [
          new Date(start).toISOString(),
          ...STATUSES.map((status) => counts.get(status) ?? 0),
        ]),
    );
  }

  /** Decisions grouped as spec 4.6 rule 4 groups them, with the derivation of spec 2.11's reason columns. */
  private topReasons(query: RelayedQuery): NodeQueryAnswer {
    const groups = new Map<string, { code: string; listId: number | null; reason: string; count: number }>();
    for (const row of this.matching(query)) {
      const decided = decisionOf(row);
      const key = JSON.stringify([decided.code, decided.listId, decided.reason]);
      const group = groups.get(key) ?? { ...decided, count: 0 };
      group.count += 1;
      groups.set(key, group);
    }
    const rows = [...groups.values()]
      .sort(
        (a, b) =>
          b.count - a.count ||
          compare(a.code, b.code) ||
          (a.listId ?? -1) - (b.listId ?? -1) ||
          compare(a.reason, b.reason),
      )
      .slice(0, query.limit)
      .map((group) => [group.code, group.listId, group.reason, group.count]);
    return table(
      [column('reason_code', 'string'), column('list_id', 'uint'), column('reason', 'string'), COUNT],
      rows,
    );
  }
}

/** What decided a row (spec 2.11 `reason_code` and `reason`; `list_id` for lists only). */
function decisionOf(row: RecordedQuery): { code: string; listId: number | null; reason: string } {
  if (row.status === 'rewritten')
    return { code: 'rewrite', listId: null, reason: row.reason_rule === '' ? '' : `=${row.reason_rule}` };
  if (row.status !== 'blocked') return { code: 'none', listId: null, reason: '' };
  if (row.operator_code !== '')
    return { code: `operator:${row.operator_code}`, listId: null, reason: row.reason_rule };
  if (row.reason_list_id !== null)
    return { code: 'list', listId: row.reason_list_id, reason: row.reason_list_name };
  return { code: 'rule', listId: null, reason: row.reason_rule };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Most first, ties by key. */
function ranked(counts: Map<string, number>, limit: number): unknown[][] {
  return [...counts.entries()]
    .sort(([a, countA], [b, countB]) => countB - countA || compare(a, b))
    .slice(0, limit)
    .map(([key, count]) => [key, count]);
}

function table(columns: Column[], rows: unknown[][]): NodeQueryAnswer {
  return { columns, rows, next_cursor: null, partial: false };
}
