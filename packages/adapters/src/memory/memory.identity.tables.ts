import type {
  AccountRecord,
  ApiTokenRow,
  InviteRow,
  MembershipRow,
  OneTimeTokenRecord,
  OrganisationRecord,
  OrgInvitationRow,
  PasskeyRecord,
  SessionRow,
  TotpState,
  WaitlistRow,
  WebAuthnChallengeRow,
} from '@svc/domain';

/** The state of the memory identity store, table by table. */
export interface IdentityTables {
  organisations: Map<string, OrganisationRecord>;
  accounts: Map<string, AccountRecord & { accountExistsMailAt: Date | null; erasureStartedAt?: Date | null }>;
  oneTimeTokens: Map<string, OneTimeTokenRecord>;
  sessions: Map<string, SessionRow>;
  apiTokens: Map<string, ApiTokenRow>;
  invites: Map<string, InviteRow>;
  waitlist: Map<string, WaitlistRow>;
  totp: Map<string, TotpState>;
  recoveryCodes: Map<string, { codeHash: string; usedAt: Date | null }[]>;
  passkeys: Map<string, PasskeyRecord>;
  webauthnChallenges: Map<string, WebAuthnChallengeRow>;
  /** Keyed `orgId/accountId`. */
  memberships: Map<string, MembershipRow>;
  orgInvitations: Map<string, OrgInvitationRow>;
}

export function emptyTables(): IdentityTables {
  return {
    organisations: new Map(),
    accounts: new Map(),
    oneTimeTokens: new Map(),
    sessions: new Map(),
    apiTokens: new Map(),
    invites: new Map(),
    waitlist: new Map(),
    totp: new Map(),
    recoveryCodes: new Map(),
    passkeys: new Map(),
    webauthnChallenges: new Map(),
    memberships: new Map(),
    orgInvitations: new Map(),
  };
}

/** The later of two times. */
export const later = (a: Date, b: Date): Date => (a.getTime() >= b.getTime() ? a : b);
