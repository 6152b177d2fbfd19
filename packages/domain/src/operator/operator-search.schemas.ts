import { z } from 'zod';
import { PageQuery } from '../pagination/pagination.js';

/** Longest search text an operator search accepts. */
const OPERATOR_SEARCH_MAX_LENGTH = 200;

/** Query of GET /v1/admin/accounts and GET /v1/admin/profiles: the text to find, paged. */
export const OperatorSearchQuery = PageQuery.extend({
  q: z
    .string({ error: 'q is required' })
    .trim()
    .min(1, 'q must not be empty')
    .max(OPERATOR_SEARCH_MAX_LENGTH, `q must be at most ${OPERATOR_SEARCH_MAX_LENGTH} characters`)
    .meta({
      description:
        'Part of an email address or profile name (case-insensitive), or a whole account, organisation or profile id.',
      example: 'alice@',
    }),
});
export type OperatorSearchQuery = z.infer<typeof OperatorSearchQuery>;

/** An account found by an operator search. */
export const OperatorAccountMatch = z
  .object({
    id: z.uuid(),
    org_id: z.uuid(),
    email: z.string(),
    role: z.string(),
    is_admin: z.boolean(),
    email_verified: z.boolean(),
    created_at: z.iso.datetime(),
    deletion_due_at: z.iso.datetime().nullable().meta({ description: 'Set while a deletion is pending.' }),
  })
  .meta({ id: 'OperatorAccountMatch' });
export type OperatorAccountMatch = z.infer<typeof OperatorAccountMatch>;

/** GET /v1/admin/accounts. */
export const OperatorAccountList = z
  .object({ accounts: z.array(OperatorAccountMatch), next_cursor: z.string().nullable() })
  .meta({ id: 'OperatorAccountList' });
export type OperatorAccountList = z.infer<typeof OperatorAccountList>;

/** A profile found by an operator search, with the email of its organisation's owner. */
export const OperatorProfileMatch = z
  .object({
    id: z.string(),
    org_id: z.uuid(),
    name: z.string(),
    owner_email: z.string().nullable().meta({ description: 'The organisation owner’s address.' }),
    suspended: z.boolean(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'OperatorProfileMatch' });
export type OperatorProfileMatch = z.infer<typeof OperatorProfileMatch>;

/** GET /v1/admin/profiles. */
export const OperatorProfileList = z
  .object({ profiles: z.array(OperatorProfileMatch), next_cursor: z.string().nullable() })
  .meta({ id: 'OperatorProfileList' });
export type OperatorProfileList = z.infer<typeof OperatorProfileList>;
