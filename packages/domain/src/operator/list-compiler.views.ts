import { z } from 'zod';
import type {
  Blocklist,
  BlocklistCatalogue,
  BlocklistCatalogueRecord,
} from '../catalogue/blocklist.schemas.js';
import { ListFormat } from '../catalogue/list-format.js';
import type { ListSourceState, ListVersionRecord } from '../lists/list-pipeline.ports.js';

const InvalidLine = z.object({
  line: z.int().meta({ description: 'Line number, from 1.' }),
  text: z.string().meta({ description: 'The line’s start (at most 120 characters).' }),
  reason: z.string(),
});

/** A source's last fetch attempt. */
const SourceFetch = z.object({
  at: z.iso.datetime(),
  status: z.enum(['ok', 'not_modified', 'failed']).meta({
    description: '`ok` (fetched and compiled), `not_modified` (HTTP 304: unchanged) or `failed`.',
  }),
  http_status: z.int().nullable(),
  error: z.string().nullable().meta({ description: 'Why it failed; the last good version stays in use.' }),
  failures: z.int().meta({ description: 'Attempts failed in a row.' }),
});

/** One upstream source of the list compiler, with its last fetch and its last good compilation. */
const CompilerSource = z
  .object({
    id: z.string(),
    name: z.string(),
    url: z.string(),
    format: ListFormat,
    licence: z.string(),
    lists: z.array(z.int()).meta({ description: 'Ids of the catalogue lists compiled from it.' }),
    entries: z.int().meta({ description: 'Entries of its last good compilation (0 before one).' }),
    updated_at: z.iso.datetime().meta({
      description: 'When its content last changed (the catalogue’s date before a good fetch).',
    }),
    sha256: z.string().nullable().meta({ description: 'Digest of its last good artifact; null before one.' }),
    invalid: z.int().meta({ description: 'Invalid lines in its last good compilation.' }),
    ignored: z.int().meta({ description: 'Lines left out on purpose (cosmetic rules, local names…).' }),
    invalid_samples: z.array(InvalidLine).meta({ description: 'The first invalid lines.' }),
    last_fetch: SourceFetch.nullable().meta({ description: 'The last attempt; null before any.' }),
    last_good_at: z.iso.datetime().nullable().meta({ description: 'When an attempt last succeeded.' }),
  })
  .meta({ id: 'CompilerSource' });
type CompilerSource = z.infer<typeof CompilerSource>;

/** GET /v1/admin/lists/sources: every source, one page. */
export const CompilerSourceList = z
  .object({ sources: z.array(CompilerSource), next_cursor: z.string().nullable() })
  .meta({ id: 'CompilerSourceList' });
export type CompilerSourceList = z.infer<typeof CompilerSourceList>;

/** A list's newest compilation. */
const ListBuild = z
  .object({
    list_id: z.int(),
    name: z.string(),
    version: z
      .int()
      .meta({ description: 'The list’s version (what list reports record): one more per new content.' }),
    sha256: z.string().meta({ description: 'Digest of the compiled artifact: its content address.' }),
    size_bytes: z.int(),
    catalogue_version: z.int(),
    published_at: z.iso.datetime().meta({ description: 'When this build was compiled.' }),
    sources: z
      .array(z.string())
      .meta({ description: 'The sources compiled in (`import` for an imported file).' }),
    entries: z.int().meta({ description: 'Distinct blocking entries.' }),
    exceptions: z.int().meta({ description: 'Distinct exceptions (`@@` rules).' }),
  })
  .meta({ id: 'ListBuild' });

/** GET /v1/admin/lists/versions: each compiled list's newest build, one page. */
export const ListBuildList = z
  .object({ versions: z.array(ListBuild), next_cursor: z.string().nullable() })
  .meta({ id: 'ListBuildList' });
export type ListBuildList = z.infer<typeof ListBuildList>;

/** The compiler's sources as the catalogue names them, with what the pipeline recorded of each. */
export function compilerSources(
  catalogue: BlocklistCatalogueRecord,
  states: ReadonlyMap<string, ListSourceState>,
): CompilerSourceList {
  const sources = new Map<string, CompilerSource>();
  for (const list of catalogue.lists) {
    for (const source of list.sources) {
      const known = sources.get(source.id);
      if (known !== undefined) {
        known.lists.push(list.id);
        continue;
      }
      const state = states.get(source.id);
      const artifact = state?.artifact ?? null;
      sources.set(source.id, {
        id: source.id,
        name: source.name,
        url: source.url,
        format: source.format,
        licence: source.licence,
        lists: [list.id],
        entries: artifact?.entries ?? 0,
        updated_at: (state?.changedAt ?? new Date(catalogue.updated_at)).toISOString(),
        sha256: artifact?.sha256 ?? null,
        invalid: artifact?.invalid ?? 0,
        ignored: artifact?.ignored ?? 0,
        invalid_samples: artifact?.invalidSamples ?? [],
        last_fetch:
          state?.checkedAt === null || state?.checkedAt === undefined || state.status === null
            ? null
            : {
                at: state.checkedAt.toISOString(),
                status: state.status,
                http_status: state.httpStatus,
                error: state.error,
                failures: state.failures,
              },
        last_good_at: state?.okAt?.toISOString() ?? null,
      });
    }
  }
  return { sources: [...sources.values()].sort((a, b) => (a.id < b.id ? -1 : 1)), next_cursor: null };
}

/** The newest build of each compiled list, by list id; lists never compiled are left out. */
export function listBuilds(
  catalogue: BlocklistCatalogueRecord,
  versions: ReadonlyMap<number, ListVersionRecord>,
): ListBuildList {
  return {
    versions: catalogue.lists.flatMap((list) => {
      const version = versions.get(list.id);
      if (version === undefined) return [];
      return [
        {
          list_id: list.id,
          name: list.name,
          version: version.version,
          sha256: version.sha256,
          size_bytes: version.size,
          catalogue_version: catalogue.version,
          published_at: version.compiledAt.toISOString(),
          sources: version.sources.map((source) => source.id),
          entries: version.entries,
          exceptions: version.exceptions,
        },
      ];
    }),
    next_cursor: null,
  };
}

/**
 * GET /v1/lists: the catalogue with what the compiler found: each source's entries, last change and last
 * fetch, each list's version in force (its newest compilation's, else the catalogue's) with its entries,
 * digest and build time, whatever built it (a refresh or `svc lists import`).
 */
export function blocklistCatalogue(
  catalogue: BlocklistCatalogueRecord,
  states: ReadonlyMap<string, ListSourceState>,
  versions: ReadonlyMap<number, ListVersionRecord>,
): BlocklistCatalogue {
  return {
    version: catalogue.version,
    updated_at: catalogue.updated_at,
    lists: catalogue.lists.map((list): Blocklist => {
      const inForce = versions.get(list.id);
      return {
        ...list,
        toggle: list.toggle ?? '',
        version: inForce?.version ?? list.version,
        entries: inForce?.entries ?? 0,
        sha256: inForce?.sha256 ?? null,
        built_at: inForce?.compiledAt.toISOString() ?? null,
        sources: list.sources.map((source) => {
          const state = states.get(source.id);
          return {
            ...source,
            entries: state?.artifact?.entries ?? 0,
            updated_at: (state?.changedAt ?? new Date(catalogue.updated_at)).toISOString(),
            last_fetch:
              state?.checkedAt === null || state?.checkedAt === undefined || state.status === null
                ? null
                : {
                    at: state.checkedAt.toISOString(),
                    status: state.status,
                    error: state.error,
                    entries: state.status === 'failed' ? null : (state.artifact?.entries ?? null),
                  },
          };
        }),
      };
    }),
  };
}
