import {
  type AccountRecord,
  type ApiTokenRow,
  type IdentityRepositories,
  type InviteRow,
  isAfterKeyset,
  newestFirst,
  type OneTimeTokenRecord,
  type OrganisationRecord,
  type PasskeyRecord,
  type SessionRow,
  type TotpState,
  type WaitlistRow,
  type WebAuthnChallengeRow,
} from '@svc/domain';
import {
  memoryPasskeyRepository,
  memoryWebAuthnChallengeRepository,
} from './memory-passkeys.repositories.js';
import type { Snapshottable } from './memory-snapshot.js';

interface IdentityTables {
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
}

function emptyTables(): IdentityTables {
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
  };
}

const later = (a: Date, b: Date): Date => (a.getTime() >= b.getTime() ? a : b);

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

  /** The identity repositories over this state. */
  repositories(): IdentityRepositories {
    const t = () => this.tables;
    const copy = structuredClone;
    return {
      accounts: {
        createWithOrganisation: async (organisation, account) => {
          for (const existing of t().accounts.values()) if (existing.email === account.email) return false;
          t().organisations.set(organisation.id, copy(organisation));
          t().accounts.set(account.id, { ...copy(account), accountExistsMailAt: null });
          return true;
        },
        findById: async (id) => {
          const row = t().accounts.get(id);
          if (row === undefined) return null;
          const { accountExistsMailAt: _, erasureStartedAt: __, ...account } = copy(row);
          return account;
        },
        findByEmail: async (email) => {
          for (const row of t().accounts.values()) {
            if (row.email !== email) continue;
            const { accountExistsMailAt: _, erasureStartedAt: __, ...account } = copy(row);
            return account;
          }
          return null;
        },
        listOwners: async (orgId) =>
          [...t().accounts.values()]
            .filter((row) => row.orgId === orgId && row.role === 'owner')
            .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
            .map((row) => {
              const { accountExistsMailAt: _, erasureStartedAt: __, ...account } = copy(row);
              return account;
            }),
        markEmailVerified: async (id, at) => {
          const row = t().accounts.get(id);
          if (row === undefined || row.emailVerifiedAt !== null) return false;
          row.emailVerifiedAt = at;
          return true;
        },
        setPasswordHash: async (id, passwordHash) => {
          const row = t().accounts.get(id);
          if (row !== undefined) row.passwordHash = passwordHash;
        },
        setOperator: async (id, isAdmin) => {
          const row = t().accounts.get(id);
          if (row !== undefined) row.isAdmin = isAdmin;
        },
        claimAccountExistsMail: async (id, at, notBefore) => {
          const row = t().accounts.get(id);
          if (row === undefined) return false;
          if (row.accountExistsMailAt !== null && row.accountExistsMailAt.getTime() > notBefore.getTime())
            return false;
          row.accountExistsMailAt = at;
          return true;
        },
        startDeletion: async (id, requestedAt, dueAt) => {
          const row = t().accounts.get(id);
          if (row === undefined || row.deletionRequestedAt !== null) return false;
          row.deletionRequestedAt = requestedAt;
          row.deletionDueAt = dueAt;
          return true;
        },
        cancelDeletion: async (id) => {
          const row = t().accounts.get(id);
          if (row === undefined || row.deletionRequestedAt === null) return 'not_pending';
          if ((row.erasureStartedAt ?? null) !== null) return 'erasure_started';
          row.deletionRequestedAt = null;
          row.deletionDueAt = null;
          return 'canceled';
        },
        claimDueErasure: async (now) => {
          for (const row of t().accounts.values()) {
            if (row.deletionDueAt === null || row.deletionDueAt.getTime() > now.getTime()) continue;
            if ((row.erasureStartedAt ?? null) !== null) continue;
            row.erasureStartedAt = now;
            const { accountExistsMailAt: _, erasureStartedAt: __, ...account } = copy(row);
            return account;
          }
          return null;
        },
        erase: async (id) => {
          const row = t().accounts.get(id);
          if (row === undefined) return;
          for (const [key, session] of t().sessions) if (session.accountId === id) t().sessions.delete(key);
          for (const [key, token] of t().apiTokens) if (token.accountId === id) t().apiTokens.delete(key);
          for (const [key, passkey] of t().passkeys) if (passkey.accountId === id) t().passkeys.delete(key);
          for (const [key, token] of t().oneTimeTokens)
            if (token.accountId === id) t().oneTimeTokens.delete(key);
          t().totp.delete(id);
          t().recoveryCodes.delete(id);
          row.email = `erased-${id}@erased.invalid`;
          row.passwordHash = null;
          const organisation = t().organisations.get(row.orgId);
          if (organisation !== undefined) organisation.name = 'erased';
        },
      },
      oneTimeTokens: {
        create: async (token) => void t().oneTimeTokens.set(`${token.purpose}:${token.hash}`, copy(token)),
        find: async (purpose, hash) => {
          const row = t().oneTimeTokens.get(`${purpose}:${hash}`);
          return row === undefined ? null : copy(row);
        },
        consume: async (purpose, hash, at) => {
          const row = t().oneTimeTokens.get(`${purpose}:${hash}`);
          if (row === undefined || row.usedAt !== null) return false;
          row.usedAt = at;
          return true;
        },
        expireUnused: async (purpose, email, at) => {
          for (const row of t().oneTimeTokens.values()) {
            if (row.purpose === purpose && row.email === email && row.usedAt === null && row.expiresAt > at)
              row.expiresAt = at;
          }
        },
        hasLive: async (purpose, email, now) =>
          [...t().oneTimeTokens.values()].some(
            (row) =>
              row.purpose === purpose && row.email === email && row.usedAt === null && row.expiresAt > now,
          ),
      },
      sessions: {
        create: async (session) => void t().sessions.set(session.id, copy(session)),
        findByTokenHash: async (hash, now) => {
          for (const row of t().sessions.values()) {
            if (row.revokedAt !== null) continue;
            const previousLive =
              row.previousTokenHash === hash &&
              row.previousValidUntil !== null &&
              row.previousValidUntil.getTime() > now.getTime();
            if (row.tokenHash === hash || previousLive) return copy(row);
          }
          return null;
        },
        findById: async (accountId, id) => {
          const row = t().sessions.get(id);
          return row === undefined || row.accountId !== accountId ? null : copy(row);
        },
        renew: async (id, expectedHash, next) => {
          const row = t().sessions.get(id);
          if (row === undefined || row.revokedAt !== null || row.tokenHash !== expectedHash) return false;
          row.previousTokenHash = row.tokenHash;
          row.previousValidUntil = next.previousValidUntil;
          row.tokenHash = next.tokenHash;
          row.tokenIssuedAt = next.issuedAt;
          return true;
        },
        touch: async (id, at) => {
          const row = t().sessions.get(id);
          if (row !== undefined) row.lastUsedAt = later(row.lastUsedAt, at);
        },
        liftRestriction: async (id) => {
          const row = t().sessions.get(id);
          if (row === undefined) return;
          row.restricted = false;
          row.strong = true;
        },
        revoke: async (accountId, id, at) => {
          const row = t().sessions.get(id);
          if (row === undefined || row.accountId !== accountId || row.revokedAt !== null) return false;
          row.revokedAt = at;
          return true;
        },
        revokeAllExcept: async (accountId, exceptId, at) => {
          let count = 0;
          for (const row of t().sessions.values()) {
            if (row.accountId !== accountId || row.revokedAt !== null || row.id === exceptId) continue;
            row.revokedAt = at;
            count += 1;
          }
          return count;
        },
        listLive: async (accountId, createdAfter, usedAfter) =>
          [...t().sessions.values()]
            .filter(
              (row) =>
                row.accountId === accountId &&
                row.revokedAt === null &&
                row.createdAt > createdAfter &&
                row.lastUsedAt > usedAfter,
            )
            .sort(newestFirst)
            .map((row) => copy(row)),
      },
      apiTokens: {
        create: async (token) => void t().apiTokens.set(token.id, copy(token)),
        findBySecretHash: async (hash) => {
          for (const row of t().apiTokens.values()) if (row.secretHash === hash) return copy(row);
          return null;
        },
        listByAccount: async (accountId, page) =>
          [...t().apiTokens.values()]
            .filter(
              (row) =>
                row.accountId === accountId && row.revokedAt === null && isAfterKeyset(row, page.after),
            )
            .sort(newestFirst)
            .slice(0, page.limit)
            .map((row) => copy(row)),
        revoke: async (accountId, id, at) => {
          const row = t().apiTokens.get(id);
          if (row === undefined || row.accountId !== accountId || row.revokedAt !== null) return false;
          row.revokedAt = at;
          return true;
        },
        touch: async (id, at) => {
          const row = t().apiTokens.get(id);
          if (row !== undefined) row.lastUsedAt = at;
        },
        revokeAll: async (accountId, at) => {
          let count = 0;
          for (const row of t().apiTokens.values()) {
            if (row.accountId !== accountId || row.revokedAt !== null) continue;
            row.revokedAt = at;
            count += 1;
          }
          return count;
        },
      },
      invites: {
        create: async (invite) => void t().invites.set(invite.id, copy(invite)),
        list: async () => [...t().invites.values()].sort(newestFirst).map((row) => copy(row)),
        consumeUse: async (codeHash, now) => {
          for (const row of t().invites.values()) {
            if (row.codeHash !== codeHash) continue;
            const live =
              row.revokedAt === null &&
              row.uses < row.maxUses &&
              (row.expiresAt === null || row.expiresAt.getTime() > now.getTime());
            if (!live) return false;
            row.uses += 1;
            return true;
          }
          return false;
        },
        revoke: async (codeHashOrId, at) => {
          for (const row of t().invites.values()) {
            if ((row.codeHash === codeHashOrId || row.id === codeHashOrId) && row.revokedAt === null) {
              row.revokedAt = at;
              return true;
            }
          }
          return false;
        },
      },
      secondFactors: {
        totp: async (accountId) =>
          copy(
            t().totp.get(accountId) ?? { secret: null, pendingSecret: null, enabledAt: null, lastStep: null },
          ),
        setPendingTotp: async (accountId, sealedSecret) => {
          const state = t().totp.get(accountId) ?? {
            secret: null,
            pendingSecret: null,
            enabledAt: null,
            lastStep: null,
          };
          t().totp.set(accountId, { ...state, pendingSecret: sealedSecret });
        },
        enableTotp: async (accountId, at, step) => {
          const state = t().totp.get(accountId);
          if (state?.pendingSecret == null) return;
          t().totp.set(accountId, {
            secret: state.pendingSecret,
            pendingSecret: null,
            enabledAt: at,
            lastStep: step,
          });
        },
        disableTotp: async (accountId) => {
          const state = t().totp.get(accountId);
          if (state !== undefined)
            t().totp.set(accountId, { ...state, secret: null, pendingSecret: null, enabledAt: null });
        },
        acceptTotpStep: async (accountId, step) => {
          const state = t().totp.get(accountId);
          if (state === undefined || (state.lastStep !== null && state.lastStep >= step)) return false;
          state.lastStep = step;
          return true;
        },
        replaceRecoveryCodes: async (accountId, codeHashes) => {
          t().recoveryCodes.set(
            accountId,
            codeHashes.map((codeHash) => ({ codeHash, usedAt: null })),
          );
        },
        consumeRecoveryCode: async (accountId, codeHash, at) => {
          const code = t()
            .recoveryCodes.get(accountId)
            ?.find((entry) => entry.codeHash === codeHash && entry.usedAt === null);
          if (code === undefined) return false;
          code.usedAt = at;
          return true;
        },
        remainingRecoveryCodes: async (accountId) =>
          (t().recoveryCodes.get(accountId) ?? []).filter((entry) => entry.usedAt === null).length,
        setMfa: async (accountId, mfa) => {
          const row = t().accounts.get(accountId);
          if (row !== undefined) row.mfa = mfa;
        },
      },
      passkeys: memoryPasskeyRepository(t),
      webauthnChallenges: memoryWebAuthnChallengeRepository(t),
      waitlist: {
        upsert: async (email, at) => {
          const existing = t().waitlist.get(email);
          if (existing !== undefined) return copy(existing);
          const row = { email, createdAt: at, confirmedAt: null };
          t().waitlist.set(email, row);
          return copy(row);
        },
        confirm: async (email, at) => {
          const row = t().waitlist.get(email);
          if (row !== undefined && row.confirmedAt === null) row.confirmedAt = at;
        },
      },
    };
  }
}
