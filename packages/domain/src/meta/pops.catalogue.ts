import { Pop } from './meta.schemas.js';
import catalogue from './pops.json' with { type: 'json' };

/** The PoP catalogue kept as data in the repository, validated once and sorted by id (spec 4.12). */
export const POP_CATALOGUE: readonly Pop[] = Object.freeze(
  Pop.array()
    .parse(catalogue)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
);
