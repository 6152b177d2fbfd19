import type { TokenCreate, TokenRecord } from '@svc/domain';
import type { TokenCreated } from '../identity.types.js';
import { listPages } from '../list-pages.js';
import type { Paginator } from '../pagination.js';
import type { CreateOptions, Transport } from '../transport.js';

/** Options of {@link TokensResource.list}. */
export interface TokenListOptions {
  /** Page size, 1 to 200 (default 50); iteration still returns every token, page after page. */
  limit?: number;
}

/** API tokens, `/v1/tokens` (spec 4.9, 5.3). */
export class TokensResource {
  constructor(private readonly transport: Transport) {}

  /**
   * POST /v1/tokens (session only: a token cannot create another token). The `secret` (`svc_` and 52
   * characters) is in this answer only; store it now. A retry of the same call (same idempotency key, within
   * 24 h) answers the same secret, never a new one. Throws ApiError 403 `reauth_required` when the session
   * signed in more than five minutes ago, and 403 `email_unverified` until the account's address is verified.
   */
  async create(request: TokenCreate, options: CreateOptions = {}): Promise<TokenCreated> {
    return (
      await this.transport.send<TokenCreated>({
        method: 'POST',
        path: '/v1/tokens',
        body: request,
        idempotent: true,
        idempotencyKey: options.idempotencyKey,
      })
    ).data;
  }

  /**
   * GET /v1/tokens (scope account:read): the live tokens, newest first, never their secrets. Auto-paging:
   * `for await (const token of client.tokens.list())` or `await client.tokens.list().toArray()`.
   */
  list(options: TokenListOptions = {}): Paginator<TokenRecord> {
    return listPages<TokenRecord>(this.transport, '/v1/tokens', 'tokens', { limit: options.limit });
  }

  /** DELETE /v1/tokens/{id} (session only): the token stops working at once (401 unauthenticated). */
  async revoke(id: string): Promise<void> {
    await this.transport.send({ method: 'DELETE', path: `/v1/tokens/${encodeURIComponent(id)}` });
  }
}
