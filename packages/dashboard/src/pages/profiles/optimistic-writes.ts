import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { Notify } from '../../feedback/notify.js';
import { t } from '../../i18n/t.js';
import { type DisplayProblem, problemOf } from '../../problems/problem-of.js';

/** How one cached resource is changed at once and written behind: the part a toggle hook supplies. */
export interface OptimisticResource<State, Change> {
  key: QueryKey;
  /** Two changes made one after the other, as one: the later wins where they overlap. */
  combine(earlier: Change, later: Change): Change;
  /** `state` with `change` applied, as the page shows it before the API answers. */
  apply(state: State, change: Change): State;
  /** Writes `change` against the version `base` was read at (If-Match); answers the stored state. */
  send(change: Change, base: State): Promise<State>;
  /** Called with the stored state after each acknowledged write (to refresh what depends on it). */
  saved(state: State): void;
}

/** One intent of the person: the change, what it is called, and the words acknowledging it. */
export interface Intent<Change> {
  change: Change;
  /** The setting's name, to say what was not saved (`Block newly registered domains`). */
  what: string;
  /** The acknowledgement once stored (`Block newly registered domains is on.`). */
  done: string;
}

interface Pending<Change> {
  change: Change;
  /** Per setting, the words of its latest intent: the last click on a control is the one acknowledged. */
  done: Map<string, string>;
}

interface Queue<State, Change> {
  /** The state the API last acknowledged: what a failed write rolls back to, and the If-Match of the next. */
  confirmed: State | undefined;
  inFlight: boolean;
  pending: Pending<Change> | undefined;
}

/**
 * Writes behind the toggles of one resource, one request at a time. A click changes the cache at once; clicks
 * made while a request is out are combined into the next request, sent with the version the previous answer
 * carried, so that the last intent wins and no If-Match is sent stale twice. A refused write (412 changed
 * elsewhere, 422, a network failure) undoes every change not yet stored and says which and why.
 */
const queues = new Map<string, Queue<unknown, unknown>>();

function queueOf<State, Change>(key: QueryKey): Queue<State, Change> {
  const id = JSON.stringify(key);
  let queue = queues.get(id);
  if (queue === undefined) {
    queue = { confirmed: undefined, inFlight: false, pending: undefined };
    queues.set(id, queue);
  }
  return queue as Queue<State, Change>;
}

/** Applies `intent` to the cached state at once and schedules its write. */
export function changeOptimistically<State, Change>(
  queryClient: QueryClient,
  resource: OptimisticResource<State, Change>,
  intent: Intent<Change>,
  notify: Notify,
): void {
  const queue = queueOf<State, Change>(resource.key);
  const current = queryClient.getQueryData<State>(resource.key);
  if (current === undefined) return;
  if (!queue.inFlight && queue.pending === undefined) {
    queue.confirmed = current;
    // A read landing after the click would show the old state for a moment: the write's answer replaces it.
    void queryClient.cancelQueries({ queryKey: resource.key, exact: true });
  }
  queryClient.setQueryData<State>(resource.key, resource.apply(current, intent.change));
  const done = new Map(queue.pending?.done);
  done.delete(intent.what);
  done.set(intent.what, intent.done);
  queue.pending = {
    change:
      queue.pending === undefined ? intent.change : resource.combine(queue.pending.change, intent.change),
    done,
  };
  if (!queue.inFlight) void flush(queryClient, resource, queue, notify);
}

async function flush<State, Change>(
  queryClient: QueryClient,
  resource: OptimisticResource<State, Change>,
  queue: Queue<State, Change>,
  notify: Notify,
): Promise<void> {
  const batch = queue.pending;
  const base = queue.confirmed;
  if (batch === undefined || base === undefined) return;
  queue.pending = undefined;
  queue.inFlight = true;
  try {
    const stored = await resource.send(batch.change, base);
    queue.confirmed = stored;
    const later = queue.pending as Pending<Change> | undefined;
    queryClient.setQueryData<State>(
      resource.key,
      later === undefined ? stored : resource.apply(stored, later.change),
    );
    resource.saved(stored);
    for (const words of batch.done.values()) notify.success(words);
  } catch (error) {
    const later = queue.pending as Pending<Change> | undefined;
    queue.pending = undefined;
    const lost = [...batch.done.keys(), ...(later?.done.keys() ?? [])];
    const problem = problemOf(error);
    if (problem.code === 'version_mismatch') {
      // The stored state is not the one the page showed: read it again rather than guess.
      await queryClient.invalidateQueries({ queryKey: resource.key, exact: true });
      queue.confirmed = queryClient.getQueryData<State>(resource.key);
    } else {
      queryClient.setQueryData<State>(resource.key, base);
    }
    notify.error(
      t('common.rolledBack', { what: listOf(lost), reason: reasonOf(problem) }),
      problem.requestId,
    );
  } finally {
    queue.inFlight = false;
  }
  if (queue.pending !== undefined) await flush(queryClient, resource, queue, notify);
}

/** Why a write was refused, in a sentence for the person. */
function reasonOf(problem: DisplayProblem): string {
  if (problem.code === 'version_mismatch') return t('common.changedElsewhere');
  const fields = problem.fieldErrors.map((error) => error.message);
  if (fields.length > 0) return t('profiles.toggle.refused', { detail: fields.join('; ') });
  return `${problem.title}.`;
}

const conjunction = new Intl.ListFormat(typeof navigator === 'undefined' ? undefined : navigator.language, {
  type: 'conjunction',
});

function listOf(names: readonly string[]): string {
  return conjunction.format([...new Set(names)]);
}
