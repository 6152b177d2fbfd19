import type { IncomingHttpHeaders } from 'node:http';

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

/** The authenticator of a server without an identity context: no credential is ever accepted. */
export class NoCredentialsAuthenticator implements Authenticator {
  async authenticate(): Promise<Principal | null> {
    return null;
  }
}
