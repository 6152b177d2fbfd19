import { z } from 'zod';
import { EmailAddress } from './identity.schemas.js';
import { AssignableRole, Role } from './roles.js';

/** A member of the organisation (GET /v1/org/members); `id` is the member's account id. */
export const Member = z
  .object({
    id: z.uuid(),
    email: z.email(),
    role: Role,
    joined_at: z.iso.datetime(),
  })
  .meta({ id: 'Member' });
export type Member = z.infer<typeof Member>;

export const MemberList = z.object({ members: z.array(Member) }).meta({ id: 'MemberList' });
export type MemberList = z.infer<typeof MemberList>;

/** PATCH /v1/org/members/{id}. */
export const MemberRoleUpdate = z.object({ role: AssignableRole }).strict().meta({ id: 'MemberRoleUpdate' });
export type MemberRoleUpdate = z.infer<typeof MemberRoleUpdate>;

/** POST /v1/org/invitations. */
export const InvitationCreate = z
  .object({ email: EmailAddress, role: AssignableRole })
  .strict()
  .meta({ id: 'InvitationCreate' });
export type InvitationCreate = z.infer<typeof InvitationCreate>;

/** A pending invitation; its token is only ever in the mail. */
export const Invitation = z
  .object({
    id: z.uuid(),
    email: z.email(),
    role: Role,
    created_at: z.iso.datetime(),
    expires_at: z.iso.datetime(),
  })
  .meta({ id: 'Invitation' });
export type Invitation = z.infer<typeof Invitation>;

export const InvitationList = z.object({ invitations: z.array(Invitation) }).meta({ id: 'InvitationList' });
export type InvitationList = z.infer<typeof InvitationList>;

/** POST /v1/org/invitations/accept: the `inv_` token of the mailed link. */
export const InvitationAccept = z
  .object({ token: z.string().min(1).max(200) })
  .strict()
  .meta({ id: 'InvitationAccept' });
export type InvitationAccept = z.infer<typeof InvitationAccept>;

/** POST /v1/org/ownership. */
export const OwnershipTransfer = z.object({ member_id: z.uuid() }).strict().meta({ id: 'OwnershipTransfer' });
export type OwnershipTransfer = z.infer<typeof OwnershipTransfer>;

/** One organisation the account belongs to (GET /v1/auth/me/organisations). */
export const OrganisationMembership = z
  .object({
    org_id: z.uuid(),
    name: z.string(),
    role: Role,
    current: z.boolean().meta({ description: 'The organisation this credential acts in.' }),
  })
  .meta({ id: 'OrganisationMembership' });
export type OrganisationMembership = z.infer<typeof OrganisationMembership>;

export const OrganisationMembershipList = z
  .object({ organisations: z.array(OrganisationMembership) })
  .meta({ id: 'OrganisationMembershipList' });
export type OrganisationMembershipList = z.infer<typeof OrganisationMembershipList>;

/** PUT /v1/auth/me/organisation. */
export const OrganisationSwitch = z.object({ org_id: z.uuid() }).strict().meta({ id: 'OrganisationSwitch' });
export type OrganisationSwitch = z.infer<typeof OrganisationSwitch>;
