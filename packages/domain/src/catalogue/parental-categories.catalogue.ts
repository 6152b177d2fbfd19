import { CATALOGUES } from './catalogue.data.js';
import type { ParentalCategory, ParentalCategoryCatalogue } from './parental-category.schemas.js';

/** The parental categories catalogue (GET /v1/parental/categories), sorted by list id. */
export const PARENTAL_CATEGORY_CATALOGUE: ParentalCategoryCatalogue = CATALOGUES.categories;

const byId = new Map(PARENTAL_CATEGORY_CATALOGUE.categories.map((category) => [category.id, category]));

/** The category with id `id` (a value of parental.categories), or undefined when there is none. */
export function findParentalCategory(id: string): ParentalCategory | undefined {
  return byId.get(id);
}
