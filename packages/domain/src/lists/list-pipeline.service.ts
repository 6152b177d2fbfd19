import { BLOCKLIST_CATALOGUE } from '../catalogue/blocklist.catalogue.js';
import type { BlocklistCatalogueRecord, BlocklistRecord } from '../catalogue/blocklist.schemas.js';
import type { ListFormat } from '../catalogue/list-format.js';
import type { Clock } from '../shared/clock.ports.js';
import { DomainError } from '../shared/domain-error.js';
import { ListCompiler, type ListCompileStats } from './list-compiler.js';
import {
  CONTENT_SNIFF_BYTES,
  judgeListContent,
  type ListContentRefusal,
  sniffForeignContent,
} from './list-content-check.js';
import {
  compileFacts,
  type ListArtifactStore,
  type ListPipelineStore,
  type ListSourceFetcher,
  type ListSourceState,
  type ListVersionRecord,
  SourceFetchError,
  type StoredArtifact,
} from './list-pipeline.ports.js';
import { derivedListIds, derivedListInputs, type SelectedList } from './profile-list-selection.js';

/** How long a refresh holds its claim before another server may take it over. */
const LIST_REFRESH_LEASE_MS = 30 * 60_000;
/** The source id a list compiled by `svc lists import` records. */
const IMPORTED_SOURCE_ID = 'import';
/** The source id of the catalogue's own domains in a derived list (parental services and categories). */
const CATALOGUE_SOURCE_ID = 'catalogue';

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

/** What a refresh did to one source. */
interface SourceRefreshOutcome {
  id: string;
  status: 'ok' | 'not_modified' | 'failed';
  /** The source's artifact changed. */
  changed: boolean;
  entries: number | null;
  invalid: number | null;
  error: string | null;
}

/** What a refresh or an import did to one list. */
export interface ListVersionOutcome {
  list_id: number;
  version: number;
  sha256: string;
  entries: number;
  /** A new version was recorded. */
  created: boolean;
}

/** The report of `svc lists refresh` and of each scheduled refresh. */
export interface ListRefreshReport {
  /** Set when another server's refresh was running: nothing was done. */
  skipped?: 'refresh_running';
  sources: SourceRefreshOutcome[];
  lists: ListVersionOutcome[];
}

function freshState(sourceId: string, url: string): ListSourceState {
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
 * The list pipeline (issue: lists from source to a compiled, versioned artifact): fetches each catalogue
 * source with a conditional GET, compiles it (list-compiler.ts) into a content-addressed artifact, merges a
 * list's sources into the list's artifact, and records a new version of the list whenever its content
 * changed. A source that fails keeps its last good artifact; the list then keeps compiling from it.
 */
export class ListPipelineService {
  private readonly catalogue: BlocklistCatalogueRecord;
  /**
   * The inputs each derived list was last compiled from in this process (the catalogue is fixed for a
   * process's life): unchanged inputs are not compiled again.
   */
  private readonly derivedInputs = new Map<number, string>();

  constructor(private readonly deps: ListPipelineDependencies) {
    this.catalogue = deps.catalogue ?? BLOCKLIST_CATALOGUE;
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
      const states = new Map((await this.deps.store.sources()).map((state) => [state.sourceId, state]));
      const sources: SourceRefreshOutcome[] = [];
      const seen = new Set<string>();
      for (const list of lists) {
        for (const source of list.sources) {
          if (seen.has(source.id)) continue;
          seen.add(source.id);
          const url = this.addressOf(source);
          const before = states.get(source.id) ?? freshState(source.id, url);
          const after = await this.fetchSource(url, source.format, before, options.allowShrink === true);
          await this.deps.store.saveSource(after);
          states.set(source.id, after);
          sources.push({
            id: source.id,
            status: after.status ?? 'failed',
            changed: after.artifact?.sha256 !== before.artifact?.sha256,
            entries: after.artifact?.entries ?? null,
            invalid: after.artifact?.invalid ?? null,
            error: after.error,
          });
        }
      }
      const current = await this.currentVersions();
      const outcomes: ListVersionOutcome[] = [];
      for (const list of lists) {
        const outcome = await this.compileList(list, states, current.get(list.id));
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
    const versions = await this.currentVersions();
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
      const compiler = new ListCompiler('domains');
      const sources: { id: string; sha256: string }[] = [];
      for (const { blocklist, sha256 } of feeding) {
        const bytes = await this.deps.artifacts.read(sha256);
        if (bytes === null) throw new Error(`the artifact ${sha256} of list ${blocklist} is missing`);
        compiler.pushArtifact(bytes);
        sources.push({ id: `list:${blocklist}`, sha256 });
      }
      for (const domain of inputs.domains) compiler.entry(domain, 'subtree', false);
      const compiled = compiler.finish();
      const stored = await this.deps.artifacts.put(compiled.chunks());
      const { record, created } = await this.deps.store.recordVersion({
        listId,
        sha256: stored.sha256,
        size: stored.size,
        entries: compiled.stats.entries,
        exceptions: compiled.stats.exceptions,
        sources: [...sources, { id: CATALOGUE_SOURCE_ID, sha256: stored.sha256 }],
        compiledAt: this.deps.clock.now(),
      });
      this.derivedInputs.set(listId, key);
      if (created) outcomes.push(outcomeOf(record, created));
    }
    return outcomes;
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

  /** One source's fetch: a new artifact, a 304, or a failure that keeps the last good artifact. */
  private async fetchSource(
    url: string,
    format: ListFormat,
    before: ListSourceState,
    allowShrink: boolean,
  ): Promise<ListSourceState> {
    const moved = before.url !== url;
    const validators =
      before.artifact === null || moved ? { etag: null, lastModified: null } : before.validators;
    const now = () => this.deps.clock.now();
    try {
      const outcome = await this.deps.fetcher.fetch(url, validators, (body) =>
        this.compileBody(body, format, before.artifact?.entries ?? null, allowShrink),
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

  /**
   * Compiles a body read as it arrives into a stored artifact, unless it is refused in place of the last good
   * version of `previousEntries` entries (list-content-check.ts): refused content is not stored.
   */
  private async compileBody(
    body: AsyncIterable<Uint8Array>,
    format: ListFormat,
    previousEntries: number | null,
    allowShrink: boolean,
  ): Promise<{ stored: StoredArtifact; stats: ListCompileStats } | { refusal: ListContentRefusal }> {
    const compiler = new ListCompiler(format);
    const decoder = new TextDecoder('utf-8');
    const head = new Uint8Array(CONTENT_SNIFF_BYTES);
    let headLength = 0;
    for await (const chunk of body) {
      if (headLength < CONTENT_SNIFF_BYTES) {
        const taken = chunk.subarray(0, CONTENT_SNIFF_BYTES - headLength);
        head.set(taken, headLength);
        headLength += taken.length;
      }
      compiler.pushText(decoder.decode(chunk, { stream: true }));
    }
    compiler.pushText(decoder.decode());
    const compiled = compiler.finish();
    const refusal = judgeListContent({
      foreign: sniffForeignContent(head.subarray(0, headLength)),
      entries: compiled.stats.entries,
      previousEntries,
      allowShrink,
    });
    if (refusal !== null) return { refusal };
    return { stored: await this.deps.artifacts.put(compiled.chunks()), stats: compiled.stats };
  }

  /**
   * A list's artifact from its sources' good artifacts (a single source's is the list's), recorded as a new
   * version when its sources changed since the newest version. Null when no source has a good artifact yet.
   */
  private async compileList(
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
      const merged = new ListCompiler('domains');
      for (const source of good) {
        const bytes = await this.deps.artifacts.read(source.artifact.sha256);
        if (bytes === null)
          throw new Error(`the artifact ${source.artifact.sha256} of source ${source.id} is missing`);
        merged.pushArtifact(bytes);
      }
      const result = merged.finish();
      compiled = {
        stored: await this.deps.artifacts.put(result.chunks()),
        entries: result.stats.entries,
        exceptions: result.stats.exceptions,
      };
    }
    const { record, created } = await this.deps.store.recordVersion({
      listId: list.id,
      sha256: compiled.stored.sha256,
      size: compiled.stored.size,
      entries: compiled.entries,
      exceptions: compiled.exceptions,
      sources,
      compiledAt: this.deps.clock.now(),
    });
    return outcomeOf(record, created);
  }
}

function outcomeOf(record: ListVersionRecord, created: boolean): ListVersionOutcome {
  return {
    list_id: record.listId,
    version: record.version,
    sha256: record.sha256,
    entries: record.entries,
    created,
  };
}

/**
 * The derived lists a refresh recompiles: every one on a full refresh; on a refresh of named lists only those the
 * named lists feed, so that `svc lists refresh --list 1` reports list 1 and what depends on it (the others are
 * compiled when a profile first chooses them, or by the next full refresh).
 */
function derivedFedBy(lists: readonly { id: number }[] | undefined): number[] {
  if (lists === undefined) return derivedListIds();
  const named = new Set(lists.map((list) => list.id));
  return derivedListIds().filter((id) =>
    (derivedListInputs(id)?.blocklists ?? []).some((blocklist) => named.has(blocklist)),
  );
}
