import type { AuditSource } from '../audit/audit.ports.js';
import { pageNewestFirst } from '../pagination/keyset.js';
import type { CursorSealer } from '../pagination/pagination.js';
import { DomainError, notFound, validationFailed } from '../shared/domain-error.js';
import { assertEmailVerified } from './email-verification.js';
import type { IdentityDependencies } from './identity.dependencies.js';
import type { AccountRecord, ApiTokenRow, SessionRow } from './identity.records.js';
import type { TokenCreate, TokenRecord } from './identity.schemas.js';
import { IdentityLimits } from './identity.settings.js';
import type { ApiTokenScope } from './identity-transaction.ports.js';
import type { Role } from './roles.js';
import { type Scope, scopesOfAccount } from './scopes.js';
import { API_TOKEN_PATTERN, newApiTokenSecret, SecretPurpose } from './secrets.js';
import { assertRecentSignIn } from './step-up.js';

/** A presented API token that is live, with its account. */
export interface AuthenticatedToken {
  token: ApiTokenRow;
  account: AccountRecord;
  /** The token's scopes that its account still holds (an operator flag taken away removes admin). */
  scopes: ReadonlySet<Scope>;
  /** The account's role in the organisation the token was made in, read with the token. */
  role: Role;
}

const TOKEN_LIST = 'tokens';

/** The public record of a stored token; never the secret. */
export function tokenRecordOf(row: ApiTokenRow): TokenRecord {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    prefix: row.prefix,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt?.toISOString() ?? null,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** API tokens (spec 4.9, 5.3): created and revoked by sessions only, each secret shown once. */
export class ApiTokenService {
  constructor(
    private readonly deps: IdentityDependencies<ApiTokenScope>,
    private readonly cursors: CursorSealer,
  ) {}

  /**
   * POST /v1/tokens from a signed-in session: a token outlives the session, so it is a credential change
   * (a sign-in within the last five minutes, 403 reauth_required) and needs a verified address (403
   * email_unverified).
   */
  async create(
    session: SessionRow,
    request: TokenCreate,
    source?: AuditSource,
    actingOrgId?: string,
  ): Promise<{ token: TokenRecord; secret: string }> {
    const account = await this.deps.store.accounts.findById(session.accountId);
    if (account === null) throw new DomainError('unauthenticated', 'The session has ended.');
    // A token belongs to the organisation the session acts in (ADR 0047), the account's own by default.
    const orgId = actingOrgId ?? account.orgId;
    assertEmailVerified(account);
    assertRecentSignIn(session, this.deps.clock.now());
    const held = scopesOfAccount(account.isAdmin);
    const missing = request.scopes.filter((scope) => !held.has(scope));
    if (missing.length > 0) {
      throw new DomainError('insufficient_scope', `This account cannot grant: ${missing.join(', ')}.`);
    }
    if (request.scopes.includes('admin') && this.deps.settings.env !== 'development' && !session.strong) {
      throw new DomainError(
        'mfa_required',
        'An admin token needs a sign-in with a passkey or a password and an authenticator code.',
      );
    }
    const now = this.deps.clock.now();
    const expiresAt = request.expires_at == null ? null : new Date(request.expires_at);
    if (expiresAt !== null && expiresAt.getTime() <= now.getTime()) {
      throw validationFailed([{ field: 'expires_at', message: 'must be in the future' }]);
    }
    const secret = newApiTokenSecret(this.deps.random);
    const row: ApiTokenRow = {
      id: this.deps.random.uuid(),
      accountId: account.id,
      orgId,
      name: request.name,
      scopes: [...new Set(request.scopes)],
      secretHash: this.deps.keyedHash.mac(SecretPurpose.apiToken, secret),
      prefix: secret.slice(0, 8),
      createdAt: now,
      expiresAt,
      lastUsedAt: null,
      revokedAt: null,
    };
    await this.deps.uow.run(async (tx) => {
      await tx.identity.apiTokens.create(row);
      if (source === undefined) return;
      await tx.audit.record({
        ...source,
        orgId,
        action: 'token.created',
        target: `tokens/${row.id}`,
        details: { name: row.name, scopes: row.scopes },
        at: now,
      });
    });
    return { token: tokenRecordOf(row), secret };
  }

  /** GET /v1/tokens: the account's live tokens, newest first. */
  async list(
    accountId: string,
    limit: number,
    cursor: string | undefined,
  ): Promise<{ tokens: TokenRecord[]; next_cursor: string | null }> {
    const page = await pageNewestFirst(this.cursors, TOKEN_LIST, limit, cursor, (keyset) =>
      this.deps.store.apiTokens.listByAccount(accountId, keyset),
    );
    return { tokens: page.items.map(tokenRecordOf), next_cursor: page.nextCursor };
  }

  /**
   * DELETE /v1/tokens/{id}: 404 for a token that is not the account's or already revoked. With `audit`, the
   * revocation is audited as `token.revoked` in the same transaction.
   */
  async revoke(accountId: string, id: string, audit?: AuditSource & { orgId: string }): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.uow.run(async (tx) => {
      if (!(await tx.identity.apiTokens.revoke(accountId, id, now))) throw notFound('token');
      if (audit === undefined) return;
      const { orgId, ...source } = audit;
      await tx.audit.record({
        ...source,
        orgId,
        action: 'token.revoked',
        target: `tokens/${id}`,
        details: {},
        at: now,
      });
    });
  }

  /** Resolves a presented `svc_` secret: null when malformed, unknown, revoked or expired. */
  async authenticate(secret: string): Promise<AuthenticatedToken | null> {
    if (!API_TOKEN_PATTERN.test(secret)) return null;
    const now = this.deps.clock.now();
    const token = await this.deps.store.apiTokens.findBySecretHash(
      this.deps.keyedHash.mac(SecretPurpose.apiToken, secret),
    );
    if (token === null || token.revokedAt !== null) return null;
    if (token.expiresAt !== null && token.expiresAt.getTime() <= now.getTime()) return null;
    const account = await this.deps.store.accounts.findById(token.accountId);
    if (account === null) return null;
    // A token belongs to the organisation it was made in: once its maker left it, the token is dead.
    const membership = await this.deps.store.memberships.find(token.orgId, account.id);
    if (membership === null) return null;
    if (
      token.lastUsedAt === null ||
      now.getTime() - token.lastUsedAt.getTime() > IdentityLimits.touchEveryMs
    ) {
      await this.deps.store.apiTokens.touch(token.id, now);
    }
    const held = scopesOfAccount(account.isAdmin);
    return {
      token,
      account,
      scopes: new Set(token.scopes.filter((scope) => held.has(scope))),
      role: membership.role,
    };
  }
}
