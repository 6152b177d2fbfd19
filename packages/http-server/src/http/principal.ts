import type { IncomingHttpHeaders } from 'node:http';
import type { AccountRecord, AuthenticatedNode, SessionRow } from '@svc/domain';

/** Who is calling: resolved by the {@link Authenticator} before a route runs. */
export interface Principal {
  kind: 'session' | 'token' | 'node';
  /** The account acting (sessions and API tokens). */
  accountId: string | null;
  orgId: string | null;
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
