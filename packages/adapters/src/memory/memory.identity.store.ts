import type { AccountRecord, IdentityRepositories } from '@svc/domain';
import { memoryAccountRepository } from './memory.accounts.repository.js';
import { memoryApiTokenRepository } from './memory.api-tokens.repository.js';
import { emptyTables, type IdentityTables } from './memory.identity.tables.js';
import { memoryInviteRepository } from './memory.invites.repository.js';
import { memoryOneTimeTokenRepository } from './memory.one-time-tokens.repository.js';
import {
  memoryPasskeyRepository,
  memoryWebAuthnChallengeRepository,
} from './memory.passkeys.repositories.js';
import { memorySecondFactorRepository } from './memory.second-factors.repository.js';
import { memorySessionRepository } from './memory.sessions.repository.js';
import {
  memoryMemberAccessRepository,
  memoryMembershipRepository,
  memoryOrgInvitationRepository,
} from './memory.teams.repositories.js';
import { memoryWaitlistRepository } from './memory.waitlist.repository.js';
import type { Snapshottable } from './memory-snapshot.js';

/**
 * Identity state of an engine-free server. Rows are copied in and out so that callers never hold live state,
 * and the whole state snapshots for transaction rollback.
 */
export class MemoryIdentityStore implements Snapshottable {
  private tables: IdentityTables = emptyTables();

  snapshot(): unknown {
    return structuredClone(this.tables);
  }

  restore(snapshot: unknown): void {
    this.tables = snapshot as IdentityTables;
  }

  /** Every account of every organisation, copied (operator search). */
  accounts(): AccountRecord[] {
    return [...this.tables.accounts.values()].map((row) => {
      const { accountExistsMailAt: _, erasureStartedAt: __, ...account } = structuredClone(row);
      return account;
    });
  }

  /** The identity repositories over this state. */
  repositories(): IdentityRepositories {
    const t = () => this.tables;
    return {
      accounts: memoryAccountRepository(t),
      oneTimeTokens: memoryOneTimeTokenRepository(t),
      sessions: memorySessionRepository(t),
      apiTokens: memoryApiTokenRepository(t),
      invites: memoryInviteRepository(t),
      secondFactors: memorySecondFactorRepository(t),
      passkeys: memoryPasskeyRepository(t),
      webauthnChallenges: memoryWebAuthnChallengeRepository(t),
      waitlist: memoryWaitlistRepository(t),
      memberships: memoryMembershipRepository(t),
      orgInvitations: memoryOrgInvitationRepository(t),
      memberAccess: memoryMemberAccessRepository(t),
    };
  }
}
