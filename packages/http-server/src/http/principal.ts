import type { IncomingHttpHeaders } from 'node:http';
import type { AccountRecord, AuthenticatedNode, Role, SessionRow } from '@svc/domain';

/** Who is calling: resolved by the {@link Authenticator} before a route runs. */
export interface Principal {
  kind: 'session' | 'token' | 'node';
  /** The account acting (sessions and API tokens). */
  accountId: string | null;
  /**
   * The organisation the credential acts in (ADR 0047): a session's chosen one while it is a member, else the
   * account's own; a token's, the one it was made in. Every tenant-scoped route uses this, never the
   * account's own `orgId`.
   */
  orgId: string | null;
  /** The account's role in `orgId`, read with the credential; null for nodes and for an account of no organisation. */
  role: Role | null;
  /** Scopes granted; sessions hold every scope their account may have. */
  scopes: ReadonlySet<string>;
  /** Audit actor, `account:<id>`, `token:<id>` or `node:<id>`. */
  actor: string;
  /** True when the credential came from the session cookie (CSRF applies). */
  viaCookie: boolean;
  /** The acting account as stored, for sessions and API tokens. */
  account: AccountRecord | null;
  /** The session, when the credential is a session. */
  session: SessionRow | null;
  /** The node, when the credential is a node token. */
  node?: AuthenticatedNode;
  /** A Set-Cookie value to send with the answer (the session token was renewed by this request). */
  setCookie?: string;
}

/** The facts of a request an authenticator may look at. */
export interface CredentialRequest {
  headers: IncomingHttpHeaders;
  clientIp: string;
}

/**
 * Resolves the credential of a request. Returns null when the request carries none; throws a DomainError
 * (401 unauthenticated, node_revoked, …) when it carries a bad one.
 */
export const Authenticator = Symbol.for('svc.Authenticator');
export interface Authenticator {
  authenticate(request: CredentialRequest): Promise<Principal | null>;
}
