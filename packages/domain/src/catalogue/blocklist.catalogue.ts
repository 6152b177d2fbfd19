import type { BlocklistCatalogueRecord, BlocklistRecord } from './blocklist.schemas.js';
import { CATALOGUES } from './catalogue.data.js';

/**
 * The blocklist catalogue as the repository records it, sorted by list id. GET /v1/lists adds what the list
 * compiler found (entries, dates, versions: list-catalogue.views.ts).
 */
export const BLOCKLIST_CATALOGUE: BlocklistCatalogueRecord = CATALOGUES.blocklists;

const byId = new Map(BLOCKLIST_CATALOGUE.lists.map((list) => [list.id, list]));

/** The blocklist with list id `id`, or undefined when the catalogue has none (422 unknown_list for callers). */
export function findBlocklist(id: number): BlocklistRecord | undefined {
  return byId.get(id);
}
