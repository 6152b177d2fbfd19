import { BLOCKLIST_CATALOGUE } from '../catalogue/blocklist.catalogue.js';
import type { BlocklistCatalogueRecord, BlocklistRecord } from '../catalogue/blocklist.schemas.js';
import type { ListFormat } from '../catalogue/list-format.js';
import type { Clock } from '../shared/clock.ports.js';
import { DomainError } from '../shared/domain-error.js';
import { type CompiledBody, compileListBody } from './list-artifact.compile.js';
import type { ListCompileStats } from './list-compiler.js';
import type {
  ListArtifactStore,
  ListPipelineStore,
  ListSourceFetcher,
  ListSourceState,
  ListVersionRecord,
} from './list-pipeline.ports.js';
import {
  fetchListSource,
  freshState,
  type SourceFetchDependencies,
  type SourceRefreshOutcome,
  sourceOutcome,
} from './list-source.fetch.js';
import {
  compileList,
  DerivedListCompiler,
  derivedFedBy,
  type ListVersionOutcome,
  outcomeOf,
} from './list-version.compile.js';
import { derivedListInputs, type SelectedList } from './profile-list-selection.js';

export type { ListVersionOutcome } from './list-version.compile.js';

/** How long a refresh holds its claim before another server may take it over. */
const LIST_REFRESH_LEASE_MS = 30 * 60_000;
/** The source id a list compiled by `svc lists import` records. */
const IMPORTED_SOURCE_ID = 'import';

/** What the list pipeline is built from. */
export interface ListPipelineDependencies {
  fetcher: ListSourceFetcher;
  artifacts: ListArtifactStore;
  store: ListPipelineStore;
  clock: Clock;
  /** Names this server in refresh claims. */
  holder: string;
  /** Default: the repository's catalogue. */
  catalogue?: BlocklistCatalogueRecord;
  /**
   * A mirror every source is fetched from instead of its upstream address, as `<mirror>/<source id>` (an
   * internal mirror for servers without internet access; tests).
   */
  mirror?: string;
  /** Told the lists that got a new version (after a refresh or an import), to tell the nodes. */
  announce?: (listIds: number[]) => Promise<void>;
}

/** Bus subject announcing new list versions: nodes whose manifest holds one fetch their document again. */
export const LISTS_CHANGED_SUBJECT = 'lists.changed';

/** The report of `svc lists refresh` and of each scheduled refresh. */
export interface ListRefreshReport {
  /** Set when another server's refresh was running: nothing was done. */
  skipped?: 'refresh_running';
  sources: SourceRefreshOutcome[];
  lists: ListVersionOutcome[];
}

/**
 * The list pipeline (issue: lists from source to a compiled, versioned artifact): fetches each catalogue
 * source with a conditional GET (list-source.fetch.ts), compiles it (list-compiler.ts) into a
 * content-addressed artifact, merges a list's sources into the list's artifact, and records a new version of
 * the list whenever its content changed (list-version.compile.ts). A source that fails keeps its last good
 * artifact; the list then keeps compiling from it.
 */
export class ListPipelineService {
  private readonly catalogue: BlocklistCatalogueRecord;
  private readonly derived: DerivedListCompiler;

  constructor(private readonly deps: ListPipelineDependencies) {
    this.catalogue = deps.catalogue ?? BLOCKLIST_CATALOGUE;
    this.derived = new DerivedListCompiler(deps);
  }

  /**
   * Fetches and compiles the sources of the given lists (every list when omitted), then the lists. Runs on one
   * server at a time: while another's refresh holds the claim, answers `skipped`.
   */
  async refresh(
    options: { lists?: readonly number[]; allowShrink?: boolean } = {},
  ): Promise<ListRefreshReport> {
    const lists = this.selected(options.lists);
    const holder = this.deps.holder;
    const started = this.deps.clock.now();
    if (
      !(await this.deps.store.claimRefresh(
        holder,
        started,
        new Date(started.getTime() + LIST_REFRESH_LEASE_MS),
      ))
    )
      return { skipped: 'refresh_running', sources: [], lists: [] };
    try {
      const states = await this.sourceStates();
      const sources = await this.refreshSources(lists, states, options.allowShrink === true);
      const current = await this.currentVersions();
      const outcomes: ListVersionOutcome[] = [];
      for (const list of lists) {
        const outcome = await compileList(this.deps, list, states, current.get(list.id));
        if (outcome !== null) outcomes.push(outcome);
      }
      outcomes.push(
        ...(await this.compileDerived(derivedFedBy(options.lists === undefined ? undefined : lists))),
      );
      await this.announce(outcomes);
      return { sources, lists: outcomes };
    } finally {
      await this.deps.store.releaseRefresh(holder, this.deps.clock.now());
    }
  }
  /**
   * `svc lists import --list ID FILE`: compiles a file as the list's whole content (read in the format of the
   * list's first source unless given) and records it as the list's next version when it differs. An HTML page,
   * a binary file, or (unless `allowShrink`) a file with no valid entry or fewer than half the entries of the
   * version in force is refused with `list_refused`, and the version in force stays.
   */
  async importList(
    listId: number,
    body: AsyncIterable<Uint8Array>,
    format?: ListFormat,
    options: { allowShrink?: boolean } = {},
  ): Promise<ListVersionOutcome & { stats: ListCompileStats }> {
    const list = this.catalogue.lists.find((candidate) => candidate.id === listId);
    if (list === undefined) throw new DomainError('unknown_list', `The catalogue has no list ${listId}.`);
    const current = (await this.currentVersions()).get(listId);
    const compiled = await this.compileBody(
      body,
      format ?? list.sources[0]?.format ?? 'domains',
      current?.entries ?? null,
      options.allowShrink === true,
    );
    if ('refusal' in compiled)
      throw new DomainError(
        'list_refused',
        `List ${listId} was not replaced: ${compiled.refusal.message}.${current === undefined ? '' : ` Version ${current.version} (${current.entries} entries) stays in force.`}`,
      );
    const { stored, stats } = compiled;
    const { record, created } = await this.deps.store.recordVersion({
      listId,
      sha256: stored.sha256,
      size: stored.size,
      entries: stats.entries,
      exceptions: stats.exceptions,
      sources: [{ id: IMPORTED_SOURCE_ID, sha256: stored.sha256 }],
      compiledAt: this.deps.clock.now(),
    });
    const derived = await this.compileDerived(derivedFedBy([{ id: listId }]));
    await this.announce([outcomeOf(record, created), ...derived]);
    return { ...outcomeOf(record, created), stats };
  }

  /**
   * The newest versions of a selection's lists, compiling the derived ones (parental services and categories)
   * that were never compiled, so that a profile choosing them gets them before the next refresh.
   */
  async versionsFor(selection: readonly SelectedList[]): Promise<Map<number, ListVersionRecord>> {
    const versions = await this.currentVersions();
    const missing = selection
      .map((list) => list.listId)
      .filter((id) => !versions.has(id) && derivedListInputs(id) !== undefined);
    if (missing.length === 0) return versions;
    await this.compileDerived(missing);
    return this.currentVersions();
  }

  /**
   * Compiles derived lists from the catalogue's domains and the newest versions of the blocklists feeding
   * them; a new version is recorded only when the content changed.
   */
  async compileDerived(listIds: readonly number[]): Promise<ListVersionOutcome[]> {
    return this.derived.compile(listIds, await this.currentVersions());
  }

  /** Each list's newest version, by list id. */
  async currentVersions(): Promise<Map<number, ListVersionRecord>> {
    return new Map((await this.deps.store.currentVersions()).map((version) => [version.listId, version]));
  }

  /** The version of a list's newest compilation, or null before one (the `list_version` of list reports). */
  async currentVersion(listId: number): Promise<number | null> {
    return (await this.currentVersions()).get(listId)?.version ?? null;
  }

  /** Every source's state, by source id. */
  async sourceStates(): Promise<Map<string, ListSourceState>> {
    return new Map((await this.deps.store.sources()).map((state) => [state.sourceId, state]));
  }

  private async announce(outcomes: readonly ListVersionOutcome[]): Promise<void> {
    const created = outcomes.filter((outcome) => outcome.created).map((outcome) => outcome.list_id);
    if (created.length > 0) await this.deps.announce?.(created);
  }

  /** Where a source is fetched: its upstream address, or its place on the mirror. */
  private addressOf(source: { id: string; url: string }): string {
    const mirror = this.deps.mirror;
    return mirror === undefined ? source.url : `${mirror.replace(/\/+$/, '')}/${source.id}`;
  }

  private selected(ids: readonly number[] | undefined): BlocklistRecord[] {
    if (ids === undefined) return this.catalogue.lists;
    const unknown = ids.filter((id) => !this.catalogue.lists.some((list) => list.id === id));
    if (unknown.length > 0)
      throw new DomainError('unknown_list', `The catalogue has no list ${unknown.join(', ')}.`);
    return this.catalogue.lists.filter((list) => ids.includes(list.id));
  }

  /**
   * Fetches each source of the lists once (a source feeding several lists is fetched for the first), saving
   * its new state into the store and into `states`.
   */
  private async refreshSources(
    lists: readonly BlocklistRecord[],
    states: Map<string, ListSourceState>,
    allowShrink: boolean,
  ): Promise<SourceRefreshOutcome[]> {
    const fetching: SourceFetchDependencies = {
      fetcher: this.deps.fetcher,
      clock: this.deps.clock,
      compile: (body, format, previousEntries) =>
        this.compileBody(body, format, previousEntries, allowShrink),
    };
    const sources: SourceRefreshOutcome[] = [];
    const seen = new Set<string>();
    for (const list of lists) {
      for (const source of list.sources) {
        if (seen.has(source.id)) continue;
        seen.add(source.id);
        const url = this.addressOf(source);
        const before = states.get(source.id) ?? freshState(source.id, url);
        const after = await fetchListSource(fetching, url, source.format, before);
        await this.deps.store.saveSource(after);
        states.set(source.id, after);
        sources.push(sourceOutcome(before, after));
      }
    }
    return sources;
  }

  private compileBody(
    body: AsyncIterable<Uint8Array>,
    format: ListFormat,
    previousEntries: number | null,
    allowShrink: boolean,
  ): Promise<CompiledBody> {
    return compileListBody(this.deps.artifacts, body, format, previousEntries, allowShrink);
  }
}
