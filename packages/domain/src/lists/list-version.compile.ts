import type { BlocklistRecord } from '../catalogue/blocklist.schemas.js';
import type { Clock } from '../shared/clock.ports.js';
import { mergeArtifacts } from './list-artifact.compile.js';
import type {
  ListArtifactStore,
  ListPipelineStore,
  ListSourceState,
  ListVersionRecord,
  StoredArtifact,
} from './list-pipeline.ports.js';
import { derivedListIds, derivedListInputs } from './profile-list-selection.js';

// The compile half of the list pipeline: a list's version from its sources' good artifacts, and the derived
// lists (parental services and categories) from the catalogue's domains and the blocklists feeding them. A
// new version is recorded only when what it was compiled from changed.

/** The source id of the catalogue's own domains in a derived list (parental services and categories). */
const CATALOGUE_SOURCE_ID = 'catalogue';

/** What a refresh or an import did to one list. */
export interface ListVersionOutcome {
  list_id: number;
  version: number;
  sha256: string;
  entries: number;
  /** A new version was recorded. */
  created: boolean;
}

/** What compiling lists is built from. */
export interface ListVersionDependencies {
  artifacts: ListArtifactStore;
  store: ListPipelineStore;
  clock: Clock;
}

/** A list's outcome from its recorded version. */
export function outcomeOf(record: ListVersionRecord, created: boolean): ListVersionOutcome {
  return {
    list_id: record.listId,
    version: record.version,
    sha256: record.sha256,
    entries: record.entries,
    created,
  };
}

function sameSources(
  a: readonly { id: string; sha256: string }[],
  b: readonly { id: string; sha256: string }[],
) {
  return (
    a.length === b.length &&
    a.every((source, index) => source.id === b[index]?.id && source.sha256 === b[index]?.sha256)
  );
}

/**
 * A list's artifact from its sources' good artifacts (a single source's is the list's), recorded as a new
 * version when its sources changed since the newest version. Null when no source has a good artifact yet.
 */
export async function compileList(
  deps: ListVersionDependencies,
  list: BlocklistRecord,
  states: ReadonlyMap<string, ListSourceState>,
  current: ListVersionRecord | undefined,
): Promise<ListVersionOutcome | null> {
  const good = list.sources.flatMap((source) => {
    const artifact = states.get(source.id)?.artifact;
    return artifact === null || artifact === undefined ? [] : [{ id: source.id, artifact }];
  });
  if (good.length === 0) return null;
  const sources = good.map((source) => ({ id: source.id, sha256: source.artifact.sha256 }));
  if (current !== undefined && sameSources(current.sources, sources)) return outcomeOf(current, false);
  let compiled: { stored: StoredArtifact; entries: number; exceptions: number };
  const only = good.length === 1 ? good[0] : undefined;
  if (only !== undefined) {
    compiled = {
      stored: only.artifact,
      entries: only.artifact.entries,
      exceptions: only.artifact.exceptions,
    };
  } else {
    const merged = await mergeArtifacts(
      deps.artifacts,
      good.map((source) => ({ sha256: source.artifact.sha256, of: `source ${source.id}` })),
    );
    compiled = { stored: merged.stored, entries: merged.stats.entries, exceptions: merged.stats.exceptions };
  }
  const { record, created } = await deps.store.recordVersion({
    listId: list.id,
    sha256: compiled.stored.sha256,
    size: compiled.stored.size,
    entries: compiled.entries,
    exceptions: compiled.exceptions,
    sources,
    compiledAt: deps.clock.now(),
  });
  return outcomeOf(record, created);
}

/**
 * Compiles derived lists, remembering the inputs each was last compiled from in this process (the catalogue
 * is fixed for a process's life): unchanged inputs are not compiled again.
 */
export class DerivedListCompiler {
  private readonly derivedInputs = new Map<number, string>();

  constructor(private readonly deps: ListVersionDependencies) {}

  /**
   * Compiles derived lists from the catalogue's domains and the newest versions of the blocklists feeding
   * them (`versions`, by list id); a new version is recorded only when the content changed.
   */
  async compile(
    listIds: readonly number[],
    versions: ReadonlyMap<number, ListVersionRecord>,
  ): Promise<ListVersionOutcome[]> {
    const outcomes: ListVersionOutcome[] = [];
    for (const listId of listIds) {
      const inputs = derivedListInputs(listId);
      if (inputs === undefined) continue;
      const feeding = inputs.blocklists.flatMap((blocklist) => {
        const version = versions.get(blocklist);
        return version === undefined ? [] : [{ blocklist, sha256: version.sha256 }];
      });
      const key = feeding.map((input) => `${input.blocklist}:${input.sha256}`).join(',');
      if (this.derivedInputs.get(listId) === key && versions.has(listId)) continue;
      const { stored, stats } = await mergeArtifacts(
        this.deps.artifacts,
        feeding.map(({ blocklist, sha256 }) => ({ sha256, of: `list ${blocklist}` })),
        inputs.domains,
      );
      const sources = feeding.map(({ blocklist, sha256 }) => ({ id: `list:${blocklist}`, sha256 }));
      const { record, created } = await this.deps.store.recordVersion({
        listId,
        sha256: stored.sha256,
        size: stored.size,
        entries: stats.entries,
        exceptions: stats.exceptions,
        sources: [...sources, { id: CATALOGUE_SOURCE_ID, sha256: stored.sha256 }],
        compiledAt: this.deps.clock.now(),
      });
      this.derivedInputs.set(listId, key);
      if (created) outcomes.push(outcomeOf(record, created));
    }
    return outcomes;
  }
}

/**
 * The derived lists a refresh recompiles: every one on a full refresh; on a refresh of named lists only those the
 * named lists feed, so that `svc lists refresh --list 1` reports list 1 and what depends on it (the others are
 * compiled when a profile first chooses them, or by the next full refresh).
 */
export function derivedFedBy(lists: readonly { id: number }[] | undefined): number[] {
  if (lists === undefined) return derivedListIds();
  const named = new Set(lists.map((list) => list.id));
  return derivedListIds().filter((id) =>
    (derivedListInputs(id)?.blocklists ?? []).some((blocklist) => named.has(blocklist)),
  );
}
