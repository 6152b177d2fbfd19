import { z } from 'zod';
import { normaliseCidr } from './cidr.js';
import { JurisdictionList, PopIdList } from './operator-scope.schemas.js';

/** An abusive source prefix (spec 2.9). */
export const SourceBlock = z
  .object({
    id: z.uuid(),
    cidr: z.string().meta({ description: 'The masked prefix, IPv4 or IPv6.', example: '203.0.113.0/24' }),
    reason: z.string(),
    pops: z.array(z.string()),
    jurisdictions: z.array(z.string()),
    expires_at: z.iso.datetime(),
    created_by: z.string(),
    created_at: z.iso.datetime(),
    removed_by: z.string().nullable(),
    removed_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'SourceBlock' });
export type SourceBlock = z.infer<typeof SourceBlock>;

/** A CIDR prefix, normalised to its masked form (`203.0.113.77/24` becomes `203.0.113.0/24`). */
const CidrPrefix = z
  .string()
  .max(64, 'must be at most 64 characters')
  .superRefine((value, context) => {
    const result = normaliseCidr(value);
    if (!result.ok) context.addIssue({ code: 'custom', message: result.message, input: value });
  })
  .overwrite((value) => {
    const result = normaliseCidr(value);
    return result.ok ? result.cidr : value;
  })
  .meta({ description: 'An IPv4 or IPv6 prefix; stored masked.', example: '203.0.113.0/24' });

/** POST /v1/admin/source-blocks (ROUTES.md). */
export const SourceBlockCreate = z
  .object({
    cidr: CidrPrefix,
    reason: z.string().min(1, 'must not be empty').max(1000, 'must be at most 1000 characters'),
    pops: PopIdList.optional(),
    jurisdictions: JurisdictionList.optional(),
    expires_at: z.iso
      .datetime({ offset: true, error: 'must be an RFC 3339 date-time' })
      .meta({ description: 'Required: a source block always expires.' }),
  })
  .strict()
  .meta({ id: 'SourceBlockCreate' });
export type SourceBlockCreate = z.infer<typeof SourceBlockCreate>;

/** A change to the source blocks: the entry and the version of the operator sources file after it. */
export const SourceBlockChange = z
  .object({ block: SourceBlock, file_version: z.number().int() })
  .meta({ id: 'SourceBlockChange' });
export type SourceBlockChange = z.infer<typeof SourceBlockChange>;

/** GET /v1/admin/source-blocks. */
export const SourceBlockList = z
  .object({ blocks: z.array(SourceBlock), next_cursor: z.string().nullable() })
  .meta({ id: 'SourceBlockList' });
export type SourceBlockList = z.infer<typeof SourceBlockList>;
