import type {
  AccountDeletionCancelOnBehalf as AccountDeletionCancelOnBehalfSchema,
  AccountDeletionOnBehalf as AccountDeletionOnBehalfSchema,
  OperatorBlockCreate as OperatorBlockCreateSchema,
  ProfileSuspensionPatch as ProfileSuspensionPatchSchema,
  SourceBlockCreate as SourceBlockCreateSchema,
} from '@svc/domain';
import type { SchemaInput } from './schema-types.js';

/** Body of POST /v1/admin/operator-blocks (spec 4.10). */
export type OperatorBlockCreateRequest = SchemaInput<typeof OperatorBlockCreateSchema>;
/** Body of POST /v1/admin/source-blocks: `{cidr, reason, pops?, jurisdictions?, expires_at}`. */
export type SourceBlockCreateRequest = SchemaInput<typeof SourceBlockCreateSchema>;
/** Body of PATCH /v1/admin/profiles/{id}: `{suspended: true, reason}` or `{suspended: false}`. */
export type ProfileSuspensionRequest = SchemaInput<typeof ProfileSuspensionPatchSchema>;
/** Which entries a list answers: live, removed, or past their expiry. */
export type OperatorEntryStatusFilter = 'live' | 'removed' | 'expired';
/** Body of POST /v1/admin/accounts/{id}/deletion: `{reason, ticket?}`. */
export type AccountDeletionOnBehalfRequest = SchemaInput<typeof AccountDeletionOnBehalfSchema>;
/** Body of DELETE /v1/admin/accounts/{id}/deletion: `{reason?, ticket?}`. */
export type AccountDeletionCancelOnBehalfRequest = SchemaInput<typeof AccountDeletionCancelOnBehalfSchema>;
