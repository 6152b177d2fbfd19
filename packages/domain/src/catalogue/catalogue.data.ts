import blocklists from './blocklists.json' with { type: 'json' };
import { type Catalogues, parseCatalogues } from './catalogue.validation.js';
import categories from './parental-categories.json' with { type: 'json' };
import services from './parental-services.json' with { type: 'json' };

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}

/**
 * The catalogues kept as versioned data in this repository, validated once when the module loads: a bad file
 * stops the server at start with a message naming the entry. Frozen, since every request shares them.
 */
export const CATALOGUES: Readonly<Catalogues> = deepFreeze(
  parseCatalogues({ blocklists, categories, services }),
);
