import { hash } from 'node:crypto';
import {
  type ApiTokenInvalidation,
  ApiTokenService,
  type AuthenticatedToken,
  type Clock,
  type CursorSealer,
  type IdentityDependencies,
} from '@svc/domain';

/**
 * How long this server trusts an API token it has authenticated without asking the database again
 * (docs/adr/0007-api-token-cache.md). Revoking through this server (DELETE /v1/tokens/{id}, or an account
 * deletion that calls `invalidateAccount`) drops the token at once; a revocation on another server, or an
 * account change such as an operator flag taken away, reaches this one within this time at most.
 */
export const API_TOKEN_CACHE_TTL_MS = 2_000;

/** Beyond this many cached tokens the oldest entry goes first. */
const MAX_ENTRIES = 10_000;

interface CachedToken {
  found: AuthenticatedToken;
  /** Monotonic time (performance.now) after which the entry is not used. */
  freshUntil: number;
}

/**
 * ApiTokenService whose `authenticate` answers from a short-lived in-process cache: a request with an API
 * token otherwise costs two database round trips (the token by its hash, then its account), which on the
 * embedded PGlite (one connection, one statement at a time) is most of the request. Only live tokens are
 * cached, keyed by the SHA-256 of the secret so that the cache holds no secret. Each hit re-checks the token's
 * expiry against the domain clock; `last_used_at` is still written on each miss as the service does.
 */
export class CachingApiTokenService extends ApiTokenService implements ApiTokenInvalidation {
  private readonly cached = new Map<string, CachedToken>();
  /**
   * Lookups in flight by key: the requests that miss together (all of a client's connections when its entry
   * ends) share one, instead of each running the two queries on a database that runs one at a time.
   */
  private readonly pending = new Map<string, Promise<AuthenticatedToken | null>>();
  /** Bumped by every invalidation: a lookup that began before one is neither stored nor joined. */
  private generation = 0;
  private readonly clock: Clock;

  constructor(
    deps: IdentityDependencies,
    cursors: CursorSealer,
    private readonly ttlMs: number = API_TOKEN_CACHE_TTL_MS,
    private readonly monotonicNow: () => number = () => performance.now(),
  ) {
    super(deps, cursors);
    this.clock = deps.clock;
  }

  override async authenticate(secret: string): Promise<AuthenticatedToken | null> {
    const key = hash('sha256', secret, 'base64url');
    const hit = this.cached.get(key);
    if (hit !== undefined) {
      const { expiresAt } = hit.found.token;
      const expired = expiresAt !== null && expiresAt.getTime() <= this.clock.now().getTime();
      if (hit.freshUntil > this.monotonicNow() && !expired) return hit.found;
      this.cached.delete(key);
    }
    const inFlight = this.pending.get(key);
    if (inFlight !== undefined) return inFlight;
    const lookup = this.lookUp(key, secret);
    this.pending.set(key, lookup);
    return lookup;
  }

  private async lookUp(key: string, secret: string): Promise<AuthenticatedToken | null> {
    const generation = this.generation;
    try {
      const found = await super.authenticate(secret);
      if (found !== null && generation === this.generation) {
        if (this.cached.size >= MAX_ENTRIES) this.evictOldest();
        this.cached.set(key, { found, freshUntil: this.monotonicNow() + this.ttlMs });
      }
      return found;
    } finally {
      if (generation === this.generation) this.pending.delete(key);
    }
  }

  override async revoke(
    accountId: string,
    id: string,
    audit?: Parameters<ApiTokenService['revoke']>[2],
  ): Promise<void> {
    await super.revoke(accountId, id, audit);
    this.invalidate(id);
  }

  /** Forgets the token `tokenId`, so that the next request with it is checked against the database. */
  invalidate(tokenId: string): void {
    this.forget((entry) => entry.found.token.id === tokenId);
  }

  /** Forgets every token of an account (account deletion, tokens revoked together). */
  invalidateAccount(accountId: string): void {
    this.forget((entry) => entry.found.account.id === accountId);
  }

  private forget(matches: (entry: CachedToken) => boolean): void {
    this.generation += 1;
    this.pending.clear();
    for (const [key, entry] of this.cached) if (matches(entry)) this.cached.delete(key);
  }

  private evictOldest(): void {
    const oldest = this.cached.keys().next();
    if (oldest.done !== true) this.cached.delete(oldest.value);
  }
}
