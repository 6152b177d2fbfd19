import { z } from 'zod';
import type { BlocklistCatalogue } from '../catalogue/blocklist.schemas.js';

/** One upstream source of the list compiler, as the catalogue records it. */
export const CompilerSource = z
  .object({
    id: z.string(),
    name: z.string(),
    url: z.string(),
    licence: z.string(),
    lists: z.array(z.int()).meta({ description: 'Ids of the catalogue lists compiled from it.' }),
    entries: z.int().meta({ description: 'Entries at the last fetch the catalogue records.' }),
    updated_at: z.iso
      .datetime()
      .meta({ description: 'When the catalogue last recorded a change of the source.' }),
  })
  .meta({ id: 'CompilerSource' });
export type CompilerSource = z.infer<typeof CompilerSource>;

/** GET /v1/admin/lists/sources: every source, one page. */
export const CompilerSourceList = z
  .object({ sources: z.array(CompilerSource), next_cursor: z.string().nullable() })
  .meta({ id: 'CompilerSourceList' });
export type CompilerSourceList = z.infer<typeof CompilerSourceList>;

/** One list build as the catalogue publishes it. */
export const ListBuild = z
  .object({
    list_id: z.int(),
    name: z.string(),
    version: z.int().meta({ description: 'The list’s version in the catalogue (what list reports record).' }),
    catalogue_version: z.int(),
    published_at: z.iso
      .datetime()
      .meta({ description: 'When the catalogue holding this build was published.' }),
    sources: z.array(z.string()),
    entries: z.int().meta({ description: 'Sum of its sources’ entries.' }),
  })
  .meta({ id: 'ListBuild' });
export type ListBuild = z.infer<typeof ListBuild>;

/** GET /v1/admin/lists/versions: the builds of the current catalogue, one page. */
export const ListBuildList = z
  .object({ versions: z.array(ListBuild), next_cursor: z.string().nullable() })
  .meta({ id: 'ListBuildList' });
export type ListBuildList = z.infer<typeof ListBuildList>;

/** The compiler's sources, from the catalogue data (this deployment keeps no fetch log beyond it). */
export function compilerSources(catalogue: BlocklistCatalogue): CompilerSourceList {
  const sources = new Map<string, CompilerSource>();
  for (const list of catalogue.lists) {
    for (const source of list.sources) {
      const known = sources.get(source.id);
      if (known !== undefined) {
        known.lists.push(list.id);
        continue;
      }
      sources.set(source.id, {
        id: source.id,
        name: source.name,
        url: source.url,
        licence: source.licence,
        lists: [list.id],
        entries: source.entries,
        updated_at: source.updated_at,
      });
    }
  }
  return { sources: [...sources.values()].sort((a, b) => (a.id < b.id ? -1 : 1)), next_cursor: null };
}

/** The list builds of the current catalogue, by list id. */
export function listBuilds(catalogue: BlocklistCatalogue): ListBuildList {
  return {
    versions: catalogue.lists.map((list) => ({
      list_id: list.id,
      name: list.name,
      version: list.version,
      catalogue_version: catalogue.version,
      published_at: catalogue.updated_at,
      sources: list.sources.map((source) => source.id),
      entries: list.sources.reduce((sum, source) => sum + source.entries, 0),
    })),
    next_cursor: null,
  };
}
