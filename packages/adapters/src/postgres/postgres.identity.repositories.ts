import type { IdentityRepositories } from '@svc/domain';
import { PostgresAccountRepository } from './postgres.accounts.repository.js';
import { PostgresApiTokenRepository } from './postgres.api-tokens.repository.js';
import { PostgresInviteRepository, PostgresWaitlistRepository } from './postgres.invites.repository.js';
import { PostgresOneTimeTokenRepository } from './postgres.one-time-tokens.repository.js';
import {
  PostgresPasskeyRepository,
  PostgresWebAuthnChallengeRepository,
} from './postgres.passkeys.repository.js';
import { PostgresSecondFactorRepository } from './postgres.second-factors.repository.js';
import { PostgresSessionRepository } from './postgres.sessions.repository.js';
import {
  PostgresMemberAccessRepository,
  PostgresMembershipRepository,
  PostgresOrgInvitationRepository,
} from './postgres.teams.repositories.js';
import type { Queryable } from './postgres-queryable.js';

/** Every identity repository on one pool or transaction client. */
export function postgresIdentityRepositories(db: Queryable): IdentityRepositories {
  return {
    accounts: new PostgresAccountRepository(db),
    oneTimeTokens: new PostgresOneTimeTokenRepository(db),
    sessions: new PostgresSessionRepository(db),
    apiTokens: new PostgresApiTokenRepository(db),
    invites: new PostgresInviteRepository(db),
    waitlist: new PostgresWaitlistRepository(db),
    secondFactors: new PostgresSecondFactorRepository(db),
    passkeys: new PostgresPasskeyRepository(db),
    webauthnChallenges: new PostgresWebAuthnChallengeRepository(db),
    memberships: new PostgresMembershipRepository(db),
    orgInvitations: new PostgresOrgInvitationRepository(db),
    memberAccess: new PostgresMemberAccessRepository(db),
  };
}
