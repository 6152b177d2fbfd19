import { z } from 'zod';
import { CatalogueId, ListId } from './catalogue.schemas.js';

const parentalCategoryShape = {
  id: CatalogueId.meta({ description: 'The value for parental.categories.', example: 'gambling' }),
  name: z.string().min(1),
  description: z.string().min(1),
  list_id: ListId.meta({ description: 'The compiled list of the category (at most 65535).' }),
};

/** A parental category: the blocklists and services that feed it are compiled into one list. */
export const ParentalCategory = z.object(parentalCategoryShape).meta({ id: 'ParentalCategory' });
export type ParentalCategory = z.infer<typeof ParentalCategory>;

/** A category as kept in parental-categories.json: an unknown key is a typo and is refused. */
export const ParentalCategoryRecord = z.strictObject(parentalCategoryShape);

/** GET /v1/parental/categories. */
export const ParentalCategoryCatalogue = z
  .object({
    categories: z.array(ParentalCategory),
    version: z.int().min(1).meta({ description: 'Version of the catalogue.' }),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'ParentalCategoryCatalogue' });
export type ParentalCategoryCatalogue = z.infer<typeof ParentalCategoryCatalogue>;
