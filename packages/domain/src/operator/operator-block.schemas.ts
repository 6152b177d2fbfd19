import { z } from 'zod';
import { PageQuery } from '../pagination/pagination.js';
import { RulePattern } from '../rules/rules.schemas.js';
import { JurisdictionList, OperatorEntryStatus, PopIdList } from './operator-scope.schemas.js';

/** Why an operator blocks a pattern (spec 2.8); `csam` entries are fleet-wide. */
export const OperatorBlockReason = z
  .enum(['legal_order', 'abuse', 'csam'])
  .meta({ id: 'OperatorBlockReason' });
export type OperatorBlockReason = z.infer<typeof OperatorBlockReason>;

/** An operator block (spec 2.8). */
export const OperatorBlock = z
  .object({
    id: z.uuid(),
    pattern: z.string().meta({ description: 'Profile rule syntax (spec 2.4), in normal form.' }),
    reason_code: OperatorBlockReason,
    public_ref: z.string().meta({ description: 'Public reference edges may show in EDE text.' }),
    note: z.string().meta({ description: 'Internal; never published to the edge.' }),
    pops: z.array(z.string()),
    jurisdictions: z.array(z.string()),
    expires_at: z.iso.datetime().nullable(),
    created_by: z.string().meta({ description: 'Actor that created it: `account:<id>` or `token:<id>`.' }),
    created_at: z.iso.datetime(),
    removed_by: z.string().nullable(),
    removed_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'OperatorBlock' });
export type OperatorBlock = z.infer<typeof OperatorBlock>;

/** POST /v1/admin/operator-blocks (spec 4.10). */
export const OperatorBlockCreate = z
  .object({
    pattern: RulePattern,
    reason_code: OperatorBlockReason,
    public_ref: z.string().max(100, 'must be at most 100 characters').optional(),
    note: z.string().max(1000, 'must be at most 1000 characters').optional(),
    pops: PopIdList.optional().meta({ description: 'Scope by PoP; empty or absent means every PoP.' }),
    jurisdictions: JurisdictionList.optional().meta({
      description: 'Scope by jurisdiction; empty or absent means everywhere.',
    }),
    expires_at: z.iso
      .datetime({ offset: true, error: 'must be an RFC 3339 date-time' })
      .nullable()
      .optional()
      .meta({ description: 'When the entry leaves the published file; null or absent: never.' }),
  })
  .strict()
  .superRefine((request, context) => {
    if (request.reason_code !== 'csam') return;
    for (const field of ['pops', 'jurisdictions'] as const) {
      if ((request[field]?.length ?? 0) > 0) {
        context.addIssue({
          code: 'custom',
          path: [field],
          message: 'must be empty for csam: csam entries are fleet-wide',
        });
      }
    }
  })
  .meta({ id: 'OperatorBlockCreate' });
export type OperatorBlockCreate = z.infer<typeof OperatorBlockCreate>;

/** A change to the operator blocks: the entry and the version of the file that published it. */
export const OperatorBlockChange = z
  .object({
    block: OperatorBlock,
    file_version: z
      .number()
      .int()
      .meta({ description: 'Version of the operator blocks file after the change.' }),
  })
  .meta({ id: 'OperatorBlockChange' });
export type OperatorBlockChange = z.infer<typeof OperatorBlockChange>;

/** GET /v1/admin/operator-blocks. */
export const OperatorBlockList = z
  .object({ blocks: z.array(OperatorBlock), next_cursor: z.string().nullable() })
  .meta({ id: 'OperatorBlockList' });
export type OperatorBlockList = z.infer<typeof OperatorBlockList>;

/** Query of the operator lists: page, and an optional state filter. */
export const OperatorEntryQuery = PageQuery.extend({
  status: OperatorEntryStatus.optional().meta({
    description: 'Only entries in this state: live, removed, or expired (past expires_at, not removed).',
  }),
});
export type OperatorEntryQuery = z.infer<typeof OperatorEntryQuery>;
