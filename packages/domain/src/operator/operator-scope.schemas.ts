import { z } from 'zod';

/** A PoP id as in GET /v1/pops (spec 4.12): short, lower case. */
const PopId = z
  .string()
  .regex(/^[a-z0-9-]{1,32}$/, 'must be a PoP id as in GET /v1/pops (lower case letters, digits, -)')
  .meta({ example: 'fra1' });

/** A jurisdiction: an ISO 3166-1 alpha-2 country, or a region code such as `EU` or `US-CA`. */
const Jurisdiction = z
  .string()
  .regex(/^[A-Z]{2}(-[A-Z0-9]{1,3})?$/, 'must be an ISO 3166 code such as DE, EU or US-CA')
  .meta({ example: 'DE' });

/** Scope lists of an operator entry: at most 100 values each, deduplicated in order. */
export const PopIdList = z
  .array(PopId)
  .max(100, 'at most 100 PoPs')
  .transform((values) => [...new Set(values)]);
export const JurisdictionList = z
  .array(Jurisdiction)
  .max(100, 'at most 100 jurisdictions')
  .transform((values) => [...new Set(values)]);

/** Filter of the operator lists: live entries, removed ones, or those whose expiry passed. */
export const OperatorEntryStatus = z.enum(['live', 'removed', 'expired']).meta({ id: 'OperatorEntryStatus' });
export type OperatorEntryStatus = z.infer<typeof OperatorEntryStatus>;

/** Which of an entry's states it is in at `now` (removal wins over expiry). */
export function operatorEntryStatus(
  entry: { removedAt: Date | null; expiresAt: Date | null },
  now: Date,
): OperatorEntryStatus {
  if (entry.removedAt !== null) return 'removed';
  if (entry.expiresAt !== null && entry.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'live';
}
