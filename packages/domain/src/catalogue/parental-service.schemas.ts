import { z } from 'zod';
import {
  CatalogueId,
  LicenceExpression,
  ListId,
  ReviewDate,
  SourceAddress,
  SuffixDomain,
  WebAddress,
} from './catalogue.schemas.js';

const parentalServiceSourceShape = {
  id: CatalogueId,
  name: z.string().min(1),
  url: SourceAddress,
  licence: LicenceExpression,
  licence_url: WebAddress,
  attribution: z.string().meta({ description: 'Credit the licence asks for; empty when none.' }),
  needs_audit: z.boolean().meta({
    description: 'Licence not cleared: used in the fleet only and never sent to self-hosted nodes.',
  }),
  included: z.boolean().meta({ description: 'Whether the source’s domains are in the compiled list.' }),
  domain_count: z.int().min(0),
};

/** A source of a parental service's domains (spec 2.7). */
const ParentalServiceSource = z.object(parentalServiceSourceShape).meta({ id: 'ParentalServiceSource' });

function parentalServiceShape<S extends z.ZodType>(source: S) {
  return {
    id: CatalogueId.meta({ description: 'The value for parental.services.', example: 'youtube' }),
    list_id: ListId,
    toggle: z
      .string()
      .regex(/^service:[a-z0-9-]{1,64}$/, 'must be service:<id>')
      .meta({ example: 'service:youtube' }),
    name: z.string().min(1),
    categories: z.array(CatalogueId).meta({ description: 'Parental categories this service also feeds.' }),
    domains: z.array(SuffixDomain).min(1),
    notes: z.string().meta({ description: 'Collateral damage and deliberate omissions.' }),
    evidence: z
      .enum(['desk', 'device'])
      .meta({ description: '`desk`: reviewed from documentation; `device`: observed on a device.' }),
    verified: ReviewDate,
    sources: z.array(source).min(1),
  };
}

/** A parental service definition (spec 2.7). */
export const ParentalService = z
  .object(parentalServiceShape(ParentalServiceSource))
  .meta({ id: 'ParentalService' });
export type ParentalService = z.infer<typeof ParentalService>;

/**
 * A service as kept in parental-services.json. A retired service stays in the file so that its id and list id
 * are never reused, and is left out of every answer.
 */
export const ParentalServiceRecord = z.strictObject({
  ...parentalServiceShape(z.strictObject(parentalServiceSourceShape)),
  retired: z.boolean().optional(),
});
export type ParentalServiceRecord = z.infer<typeof ParentalServiceRecord>;

/** GET /v1/parental/services: one page of the catalogue in list id order (spec 4.7). */
export const ParentalServiceList = z
  .object({
    services: z.array(ParentalService),
    next_cursor: z
      .string()
      .nullable()
      .meta({ description: 'Cursor of the next page; null on the last page.' }),
    available: z
      .boolean()
      .meta({ description: 'Whether parental service blocking is offered on this deployment.' }),
    version: z.int().min(1).meta({ description: 'Version of the catalogue.' }),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'ParentalServiceList' });
export type ParentalServiceList = z.infer<typeof ParentalServiceList>;
