import type { AuditScope } from '../audit/audit.ports.js';
import type { LinkedIpRepository } from '../linked-ips/linked-ip.ports.js';
import type { MailScope } from '../mail/mail-queue.ports.js';
import type { ProfilePublishScope, ProfileTombstoneRepository } from '../profiles/profile.ports.js';
import type { WebhookEventScope, WebhookRepository } from '../webhooks/webhook.ports.js';
import type {
  AccountCredentialRepository,
  AccountDeletionRepository,
  AccountReadRepository,
  AccountRegistrationRepository,
  IdentityRepositories,
} from './identity.ports.js';
import type {
  MemberAccessRepository,
  MembershipRepository,
  OrgInvitationRepository,
} from './membership.ports.js';

/** The identity repositories `Names` of a transaction: the building block of the identity use cases' scopes. */
interface IdentityScopeOf<Names extends keyof IdentityRepositories> {
  identity: Pick<IdentityRepositories, Names>;
}

/** What reading and consuming emailed single-use tokens uses of a transaction. */
export type OneTimeTokenScope = IdentityScopeOf<'oneTimeTokens'>;

/** What replacing recovery codes uses of a transaction. */
export type RecoveryCodeScope = IdentityScopeOf<'secondFactors'>;

/**
 * What ending every credential made before an address was verified uses of a transaction
 * (`endCredentialsOfUnverifiedPast`).
 */
export type UnverifiedPastScope = IdentityScopeOf<'sessions' | 'apiTokens' | 'passkeys' | 'secondFactors'> & {
  linkedIps: Pick<LinkedIpRepository, 'listOfOrganisation' | 'setDdnsToken' | 'deletePending'>;
};

/** What signing up, verifying an address and the waitlist use of a transaction. */
export type SignUpScope = {
  identity: { accounts: AccountReadRepository & AccountRegistrationRepository & AccountCredentialRepository };
} & IdentityScopeOf<'invites' | 'oneTimeTokens' | 'waitlist'> &
  UnverifiedPastScope &
  MailScope;

/** What signing in and out uses of a transaction. */
export type SessionScope = IdentityScopeOf<'sessions'> & AuditScope;

/** What creating and revoking API tokens uses of a transaction. */
export type ApiTokenScope = IdentityScopeOf<'apiTokens'> & AuditScope & WebhookEventScope;

/** What changing and resetting passwords uses of a transaction. */
export type PasswordScope = {
  identity: { accounts: AccountReadRepository & AccountCredentialRepository };
} & IdentityScopeOf<'apiTokens' | 'oneTimeTokens' | 'sessions'> &
  UnverifiedPastScope &
  AuditScope &
  MailScope;

/** What adding and removing passkeys uses of a transaction. */
export type PasskeyScope = IdentityScopeOf<'passkeys' | 'secondFactors' | 'sessions'> &
  RecoveryCodeScope &
  AuditScope &
  MailScope;

/** What TOTP, recovery codes and account recovery use of a transaction. */
export type SecondFactorScope = {
  identity: { accounts: AccountReadRepository };
} & IdentityScopeOf<'oneTimeTokens' | 'passkeys' | 'secondFactors' | 'sessions'> &
  AuditScope &
  MailScope;

/**
 * What the members, invitations and organisation use cases use of a transaction (issue 39); member changes
 * are announced to webhooks in the same transaction (issue 40).
 */
export type TeamsScope = {
  identity: {
    accounts: AccountReadRepository;
    memberships: MembershipRepository;
    orgInvitations: OrgInvitationRepository;
    memberAccess: MemberAccessRepository;
  };
} & AuditScope &
  MailScope &
  WebhookEventScope;

/** Every identity use case's scope: what {@link IdentityDependencies} offers by default. */
export type IdentityScope = SignUpScope &
  SessionScope &
  ApiTokenScope &
  PasswordScope &
  PasskeyScope &
  SecondFactorScope &
  TeamsScope;

/** What erasing an account needs of its data exports (the exports' repository offers it). */
interface AccountExportEraser {
  /** Deletes every export of the account and its archive; returns how many. */
  eraseAll(accountId: string): Promise<number>;
}

/**
 * What account deletion uses of a transaction: the account's deletion state, its sessions and tokens, its
 * organisation's profiles (tombstoned, restored and republished, erased) and exports, audited and mailed. The
 * nodes are revoked through the nodes context's port (`AccountNodesRevocation`), which adds what it uses.
 */
export type AccountDeletionScope = {
  identity: { accounts: AccountDeletionRepository; memberships: Pick<MembershipRepository, 'listByAccount'> };
  profiles: ProfileTombstoneRepository;
  exports: AccountExportEraser;
  /** Events queued by the request and the cancel; the organisation's endpoints go with the erasure. */
  webhooks: Pick<WebhookRepository, 'enqueue' | 'deleteAll'>;
} & IdentityScopeOf<'sessions' | 'apiTokens'> &
  ProfilePublishScope &
  AuditScope &
  MailScope &
  WebhookEventScope;
