import type {
  InvitationCreate as InvitationCreateSchema,
  InvitationList as InvitationListSchema,
  Invitation as InvitationSchema,
  MemberList as MemberListSchema,
  Member as MemberSchema,
  OrganisationMembershipList as OrganisationMembershipListSchema,
  OrganisationMembership as OrganisationMembershipSchema,
} from '@svc/domain';
import type { SchemaOutput } from './schema-types.js';

/** A member of the organisation: `id` is the member's account id, `role` owner, admin, editor or viewer. */
export type Member = SchemaOutput<typeof MemberSchema>;
/** GET /v1/org/members answer. */
export type MemberList = SchemaOutput<typeof MemberListSchema>;
/** A pending invitation (its token is only in the mail). */
export type Invitation = SchemaOutput<typeof InvitationSchema>;
/** Body of POST /v1/org/invitations: the address and the role given (never owner). */
export type InvitationCreate = SchemaOutput<typeof InvitationCreateSchema>;
/** GET /v1/org/invitations answer. */
export type InvitationList = SchemaOutput<typeof InvitationListSchema>;
/** One organisation of the account; `current` marks the one the credential acts in. */
export type OrganisationMembership = SchemaOutput<typeof OrganisationMembershipSchema>;
/** GET /v1/auth/me/organisations answer. */
export type OrganisationMembershipList = SchemaOutput<typeof OrganisationMembershipListSchema>;
