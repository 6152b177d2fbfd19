import type { Blocklist, BlocklistCatalogue } from './blocklist.schemas.js';
import { CATALOGUES } from './catalogue.data.js';

/** The blocklist catalogue (GET /v1/lists, spec 4.12), sorted by list id. */
export const BLOCKLIST_CATALOGUE: BlocklistCatalogue = CATALOGUES.blocklists;

const byId = new Map(BLOCKLIST_CATALOGUE.lists.map((list) => [list.id, list]));

/** The blocklist with list id `id`, or undefined when the catalogue has none (422 unknown_list for callers). */
export function findBlocklist(id: number): Blocklist | undefined {
  return byId.get(id);
}
