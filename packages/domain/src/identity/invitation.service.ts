import type { AuditSource } from '../audit/audit.ports.js';
import { DomainError, notFound } from '../shared/domain-error.js';
import { assertEmailVerified } from '../shared/email-verified.js';
import { emitWebhookEvent } from '../webhooks/webhook-emit.js';
import type { IdentityDependencies } from './identity.dependencies.js';
import type { AttemptLimit } from './identity.ports.js';
import type { AccountRecord } from './identity.records.js';
import type { TeamsScope } from './identity-transaction.ports.js';
import { invitationMail } from './invitation.mail.js';
import type { ActingMember } from './membership.ports.js';
import type { OrgInvitationRow } from './membership.records.js';
import type { Invitation, InvitationCreate } from './membership.schemas.js';
import { newOpaqueToken, SecretPurpose } from './secrets.js';

/** An invitation is valid for 7 days (issue 39). */
const INVITATION_LIFETIME_MS = 7 * 24 * 3600 * 1000;

/** Invitations an organisation may send: a flood of mail to strangers is refused with 429 rate_limited. */
const ORG_INVITATION_LIMIT: AttemptLimit = { name: 'org-invitations', points: 20, perSeconds: 3600 };

/** The prefix of invitation tokens, so that a pasted one is recognised. */
const TOKEN_PREFIX = 'inv_';

function invitationOf(row: OrgInvitationRow): Invitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
  };
}

type InvitationDependencies = Pick<
  IdentityDependencies<TeamsScope>,
  'uow' | 'store' | 'clock' | 'random' | 'keyedHash' | 'limiter' | 'settings'
>;

/** Invitations to join an organisation (issue 39): mailed, single use, valid 7 days, revocable, listed. */
export class InvitationService {
  constructor(private readonly deps: InvitationDependencies) {}

  /**
   * POST /v1/org/invitations: mails `{dashboard_url}/invitations/accept?token=inv_…`. An address that already
   * belongs answers 409 already_member; earlier invitations to the same address stay valid until they are
   * used, revoked or expire.
   */
  async invite(actor: ActingMember & { email: string }, request: InvitationCreate, source: AuditSource) {
    await this.deps.limiter.consume(ORG_INVITATION_LIMIT, actor.orgId);
    const email = request.email.trim().toLowerCase();
    const now = this.deps.clock.now();
    const token = newOpaqueToken(this.deps.random, TOKEN_PREFIX);
    const row: OrgInvitationRow = {
      id: this.deps.random.uuid(),
      orgId: actor.orgId,
      email,
      role: request.role,
      tokenHash: this.deps.keyedHash.mac(SecretPurpose.orgInvitation, token),
      invitedBy: source.actor,
      createdAt: now,
      expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS),
      acceptedAt: null,
      revokedAt: null,
    };
    const link = `${this.deps.settings.dashboardUrl}/invitations/accept?token=${encodeURIComponent(token)}`;
    await this.deps.uow.run(async (tx) => {
      const existing = await tx.identity.accounts.findByEmail(email);
      if (existing !== null && (await tx.identity.memberships.find(actor.orgId, existing.id)) !== null) {
        throw new DomainError('already_member', `${email} already belongs to this organisation.`);
      }
      await tx.identity.orgInvitations.create(row);
      await tx.mail.enqueue(invitationMail(email, actor.email, row.role, link));
      await tx.audit.record({
        ...source,
        orgId: actor.orgId,
        action: 'member.invited',
        target: `org/invitations/${row.id}`,
        details: { email, role: row.role },
        at: now,
      });
      await emitWebhookEvent(tx, this.deps, actor.orgId, 'member.invited', {
        invitation_id: row.id,
        email,
        role: row.role,
        expires_at: row.expiresAt.toISOString(),
      });
    });
    return invitationOf(row);
  }

  /** GET /v1/org/invitations: the live invitations, newest first. */
  async list(orgId: string): Promise<Invitation[]> {
    return (await this.deps.store.orgInvitations.listLive(orgId, this.deps.clock.now())).map(invitationOf);
  }

  /** DELETE /v1/org/invitations/{id}: the mailed link stops working at once; 404 when none is live. */
  async revoke(orgId: string, id: string, source: AuditSource): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.uow.run(async (tx) => {
      if (!(await tx.identity.orgInvitations.revoke(orgId, id, now))) throw notFound('invitation');
      await tx.audit.record({
        ...source,
        orgId,
        action: 'member.invitation_revoked',
        target: `org/invitations/${id}`,
        details: {},
        at: now,
      });
    });
  }

  /**
   * POST /v1/org/invitations/accept: the signed-in account joins with the invited role. The account's verified
   * address must be the invited one (a forwarded link is of no use to someone else); a used token answers
   * 400 token_used, an expired one token_expired, an unknown or revoked one invalid_token.
   */
  async accept(account: AccountRecord, token: string, source: AuditSource): Promise<{ orgId: string }> {
    assertEmailVerified(account);
    const now = this.deps.clock.now();
    const hash = this.deps.keyedHash.mac(SecretPurpose.orgInvitation, token);
    const invitation = await this.deps.store.orgInvitations.findByTokenHash(hash);
    this.assertUsable(invitation, account, now);
    const { id, orgId, role, email } = invitation;
    await this.deps.uow.run(async (tx) => {
      if ((await tx.identity.memberships.find(orgId, account.id)) !== null) {
        throw new DomainError('already_member', 'This account already belongs to that organisation.');
      }
      if (!(await tx.identity.orgInvitations.accept(id, now))) {
        throw new DomainError('token_used', 'This invitation was already used.');
      }
      await tx.identity.memberships.add({ orgId, accountId: account.id, role, createdAt: now });
      await tx.audit.record({
        ...source,
        orgId,
        action: 'member.joined',
        target: `org/members/${account.id}`,
        details: { email, role, invitation: id },
        at: now,
      });
      await emitWebhookEvent(tx, this.deps, orgId, 'member.joined', {
        member_id: account.id,
        email: account.email,
        role,
        invitation_id: id,
      });
    });
    return { orgId };
  }

  private assertUsable(
    invitation: OrgInvitationRow | null,
    account: AccountRecord,
    now: Date,
  ): asserts invitation is OrgInvitationRow {
    if (invitation === null || invitation.revokedAt !== null) {
      throw new DomainError('invalid_token', 'This invitation link is not valid; ask for a new invitation.');
    }
    if (invitation.acceptedAt !== null)
      throw new DomainError('token_used', 'This invitation was already used.');
    if (invitation.expiresAt.getTime() <= now.getTime()) {
      throw new DomainError('token_expired', 'This invitation has expired; ask for a new one.');
    }
    if (invitation.email !== account.email) {
      throw new DomainError(
        'invalid_token',
        'This invitation is for another address: sign in with the invited address to accept it.',
      );
    }
  }
}
