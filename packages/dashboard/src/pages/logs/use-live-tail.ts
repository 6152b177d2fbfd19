import { ApiError, type LogQueryOptions, type Problem } from '@svc/sdk';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../api/client.js';
import { t } from '../../i18n/t.js';
import { type DisplayProblem, problemOf } from '../../problems/problem-of.js';
import { type LogRow, logRowsOf } from './log-row.js';

/** Rows the page keeps at most: older ones fall off the end as new ones arrive. */
export const MAX_ROWS = 10_000;
/** Rows the first event of the stream carries. */
const FIRST_ROWS = 200;

/** Where the live tail stands, as the page says it. */
type TailState = 'connecting' | 'live' | 'reconnecting' | 'ended';

/** The live tail of a profile's log: its rows (newest first), its state, and the rows held back while paused. */
export interface LiveTail {
  rows: LogRow[];
  state: TailState;
  /** Why it ended, or why it could not start (a refused stream: 429 too_many_streams, 422 filters, …). */
  problem: DisplayProblem | null;
  /** A passing condition the stream reported (the node is offline or reconnecting); it goes on. */
  notice: string | null;
  /** True when the profile keeps no per-query logs (destination `none`). */
  noLogs: boolean;
  /** Rows that arrived while paused, shown on resume. */
  held: number;
  /** Shows the rows held while paused. */
  release: () => void;
  /** Starts again after it ended. */
  restart: () => void;
}

/** A problem the stream sent as an event, worded as every other problem of the dashboard. */
function displayOf(problem: Problem): DisplayProblem {
  return problemOf(new ApiError(problem.status, problem, {}));
}

function newestFirst(incoming: LogRow[], current: LogRow[]): LogRow[] {
  if (incoming.length === 0) return current;
  const merged = incoming.length >= MAX_ROWS ? incoming.slice(0, MAX_ROWS) : incoming.concat(current);
  return merged.length > MAX_ROWS ? merged.slice(0, MAX_ROWS) : merged;
}

/**
 * Follows `GET /v1/profiles/{id}/logs/stream` with the tail filters while `enabled`: the first event brings
 * the latest rows, later ones the rows that arrived since. The SDK resumes after a dropped connection from the
 * last event id (no row lost or repeated); the state says so meanwhile. While `paused` (the reader scrolled
 * away from the newest rows) arriving rows are held, so that what the reader looks at does not move.
 */
export function useLiveTail(
  profileId: string,
  filters: Omit<LogQueryOptions, 'mode' | 'cursor' | 'limit' | 'from' | 'to'>,
  filterKey: string,
  enabled: boolean,
  paused: boolean,
): LiveTail {
  const [rows, setRows] = useState<LogRow[]>([]);
  const [state, setState] = useState<TailState>('connecting');
  const [problem, setProblem] = useState<DisplayProblem | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [noLogs, setNoLogs] = useState(false);
  const [held, setHeld] = useState(0);
  const [run, setRun] = useState(0);
  const heldRows = useRef<LogRow[]>([]);
  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  const filtersRef = useRef(filters);
  filtersRef.current = filters;

  const release = useCallback(() => {
    const pending = heldRows.current;
    heldRows.current = [];
    setHeld(0);
    setRows((current) => newestFirst(pending, current));
  }, []);

  useEffect(() => {
    if (!paused && heldRows.current.length > 0) release();
  }, [paused, release]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: filterKey stands for the filters; run restarts.
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    heldRows.current = [];
    setRows([]);
    setHeld(0);
    setProblem(null);
    setNotice(null);
    setNoLogs(false);
    setState('connecting');
    const follow = async () => {
      const stream = api.profiles.logs.stream(profileId, {
        ...filtersRef.current,
        limit: FIRST_ROWS,
        signal: controller.signal,
        onConnection: (change) => setState(change.state === 'open' ? 'live' : 'reconnecting'),
      });
      try {
        for await (const event of stream) {
          if (event.type === 'rows') {
            setNotice(null);
            if (event.result.source === 'none') setNoLogs(true);
            const incoming = logRowsOf(event.result);
            if (pausedRef.current) {
              heldRows.current = newestFirst(incoming, heldRows.current);
              setHeld(heldRows.current.length);
            } else setRows((current) => newestFirst(incoming, current));
          } else if (event.type === 'partial') {
            setNotice(t('logs.tail.nodeReconnecting'));
          } else if (event.transient) {
            const shown = displayOf(event.problem);
            setNotice(t('logs.tail.transient', { title: shown.title, detail: shown.detail }));
          } else {
            setProblem(displayOf(event.problem));
          }
        }
      } catch (error) {
        if (!controller.signal.aborted) setProblem(problemOf(error));
      }
      if (!controller.signal.aborted) setState('ended');
    };
    void follow();
    return () => controller.abort();
  }, [profileId, filterKey, enabled, run]);

  return { rows, state, problem, notice, noLogs, held, release, restart: () => setRun((value) => value + 1) };
}
