import {
  type ApiTokenService,
  DomainError,
  type NodeService,
  type SessionService,
  scopesOfAccount,
} from '@svc/domain';
import type { Authenticator, CredentialRequest, Principal } from './principal.js';
import { sessionCookie, sessionTokenOf } from './session-cookie.js';

/**
 * The one authentication layer of every route: a Bearer `svc_` API token or `svcnode_` node token, else the
 * `svc_session` cookie. A credential that is presented but not live answers 401 unauthenticated (node_revoked
 * for a revoked node); none at all leaves the principal null for the route to decide. Node principals are
 * accepted by node routes only (the route pipeline refuses them elsewhere).
 */
export class IdentityAuthenticator implements Authenticator {
  constructor(
    private readonly sessions: SessionService,
    private readonly tokens: ApiTokenService,
    private readonly secureCookies: boolean,
    private readonly nodes?: Pick<NodeService, 'authenticate'>,
  ) {}

  async authenticate(request: CredentialRequest): Promise<Principal | null> {
    const authorization = request.headers.authorization;
    if (authorization !== undefined) return this.bearer(authorization);
    const cookie = request.headers.cookie;
    const token = sessionTokenOf(cookie);
    return token === undefined ? null : this.session(token);
  }

  private async bearer(authorization: string): Promise<Principal> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    const secret = match?.[1];
    if (secret === undefined) {
      throw new DomainError('unauthenticated', 'Send the credential as `Authorization: Bearer <token>`.');
    }
    if (secret.startsWith('svcnode_')) return this.node(secret);
    const found = await this.tokens.authenticate(secret);
    if (found === null) throw new DomainError('unauthenticated', 'The API token is not valid.');
    return {
      kind: 'token',
      accountId: found.account.id,
      orgId: found.token.orgId,
      role: found.role,
      scopes: found.scopes,
      actor: `token:${found.token.id}`,
      viaCookie: false,
      account: found.account,
      session: null,
    };
  }

  private async node(secret: string): Promise<Principal> {
    if (this.nodes === undefined) {
      throw new DomainError('unauthenticated', 'Node tokens are accepted only by node endpoints.');
    }
    const found = await this.nodes.authenticate(secret);
    return {
      kind: 'node',
      accountId: null,
      orgId: found.node.orgId,
      role: null,
      scopes: new Set(),
      actor: `node:${found.node.id}`,
      viaCookie: false,
      account: null,
      session: null,
      node: found,
    };
  }

  private async session(token: string): Promise<Principal> {
    const found = await this.sessions.authenticate(token);
    if (found === null) throw new DomainError('unauthenticated', 'The session has ended; sign in again.');
    return {
      kind: 'session',
      accountId: found.account.id,
      orgId: found.membership?.orgId ?? found.account.orgId,
      role: found.membership?.role ?? null,
      scopes: scopesOfAccount(found.account.isAdmin),
      actor: `account:${found.account.id}`,
      viaCookie: true,
      account: found.account,
      session: found.session,
      ...(found.renewed === null
        ? {}
        : { setCookie: sessionCookie(found.renewed.token, found.renewed.expiresAt, this.secureCookies) }),
    };
  }
}
