import type { ListFormat } from '../catalogue/list-format.js';
import type { Clock } from '../shared/clock.ports.js';
import type { CompiledBody } from './list-artifact.compile.js';
import {
  compileFacts,
  type ListSourceFetcher,
  type ListSourceState,
  SourceFetchError,
} from './list-pipeline.ports.js';

// The fetch half of the list pipeline: one source's conditional GET, and the state it leaves behind. A source
// that fails or is refused keeps its last good artifact, so the lists it feeds keep compiling from it.

/** What a refresh did to one source. */
export interface SourceRefreshOutcome {
  id: string;
  status: 'ok' | 'not_modified' | 'failed';
  /** The source's artifact changed. */
  changed: boolean;
  entries: number | null;
  invalid: number | null;
  error: string | null;
}

/** The state of a source never fetched. */
export function freshState(sourceId: string, url: string): ListSourceState {
  return {
    sourceId,
    url,
    validators: { etag: null, lastModified: null },
    artifact: null,
    checkedAt: null,
    status: null,
    httpStatus: null,
    error: null,
    failures: 0,
    okAt: null,
    changedAt: null,
  };
}

/** What a source's fetch reports, from its states before and after. */
export function sourceOutcome(before: ListSourceState, after: ListSourceState): SourceRefreshOutcome {
  return {
    id: after.sourceId,
    status: after.status ?? 'failed',
    changed: after.artifact?.sha256 !== before.artifact?.sha256,
    entries: after.artifact?.entries ?? null,
    invalid: after.artifact?.invalid ?? null,
    error: after.error,
  };
}

/** What a source's fetch needs: the fetcher, the clock, and how a body it reads is compiled. */
export interface SourceFetchDependencies {
  fetcher: ListSourceFetcher;
  clock: Clock;
  compile: (
    body: AsyncIterable<Uint8Array>,
    format: ListFormat,
    previousEntries: number | null,
  ) => Promise<CompiledBody>;
}

/** One source's fetch: a new artifact, a 304, or a failure that keeps the last good artifact. */
export async function fetchListSource(
  deps: SourceFetchDependencies,
  url: string,
  format: ListFormat,
  before: ListSourceState,
): Promise<ListSourceState> {
  const moved = before.url !== url;
  const validators =
    before.artifact === null || moved ? { etag: null, lastModified: null } : before.validators;
  const now = () => deps.clock.now();
  try {
    const outcome = await deps.fetcher.fetch(url, validators, (body) =>
      deps.compile(body, format, before.artifact?.entries ?? null),
    );
    if (outcome.status === 'not_modified') {
      return {
        ...before,
        url,
        status: 'not_modified',
        httpStatus: outcome.httpStatus,
        error: null,
        failures: 0,
        checkedAt: now(),
        okAt: now(),
      };
    }
    if ('refusal' in outcome.result) {
      // Refused content is no good fetch: the validators stay, so the next refresh fetches it again.
      return {
        ...before,
        url,
        status: 'failed',
        httpStatus: outcome.httpStatus,
        error: `refused: ${outcome.result.refusal.message}; the last good version stays`,
        failures: before.failures + 1,
        checkedAt: now(),
      };
    }
    const { stored, stats } = outcome.result;
    const changed = stored.sha256 !== before.artifact?.sha256;
    return {
      ...before,
      url,
      validators: outcome.validators,
      artifact: { ...stored, ...compileFacts(stats) },
      status: 'ok',
      httpStatus: outcome.httpStatus,
      error: null,
      failures: 0,
      checkedAt: now(),
      okAt: now(),
      changedAt: changed ? now() : before.changedAt,
    };
  } catch (error) {
    if (!(error instanceof SourceFetchError)) throw error;
    return {
      ...before,
      status: 'failed',
      httpStatus: error.httpStatus,
      error: error.message,
      failures: before.failures + 1,
      checkedAt: now(),
    };
  }
}
