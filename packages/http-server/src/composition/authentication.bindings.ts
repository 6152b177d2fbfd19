import type { HttpSettings } from '@svc/composition';
import {
  ApiTokenInvalidation,
  type ApiTokenService,
  type CursorSealer,
  type IdentityDependencies,
  type NodeService,
  type SessionService,
} from '@svc/domain';
import { ContainerModule } from 'inversify';
import { CachingApiTokenService } from '../http/caching-api-token.service.js';
import { IdentityAuthenticator } from '../http/identity-authenticator.js';
import { Authenticator } from '../http/principal.js';
import {
  ApiTokenServiceToken,
  CursorSealerToken,
  IdentityDependenciesToken,
  NodeServiceToken,
  SessionServiceToken,
} from './tokens.js';

/** The one token cache, bound as the token service and as the account invalidation the routes call. */
const CachingApiTokenServiceToken = Symbol.for('svc.CachingApiTokenService');

/**
 * The server's authentication over the identity use cases: the token cache (bound as the ApiTokenService, so
 * the identity module binds no plain one) and the authenticator of requests. Loaded before the use cases.
 */
export function authenticationModule(http: HttpSettings): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<CachingApiTokenService>(CachingApiTokenServiceToken).toResolvedValue(
      // Authenticated tokens are cached for 2 s at most; revoking through this server drops them at once.
      (deps: IdentityDependencies, cursors: CursorSealer) => new CachingApiTokenService(deps, cursors),
      [IdentityDependenciesToken, CursorSealerToken],
    );
    bind<ApiTokenService>(ApiTokenServiceToken).toService(CachingApiTokenServiceToken);
    bind<ApiTokenInvalidation>(ApiTokenInvalidation).toService(CachingApiTokenServiceToken);
    bind<Authenticator>(Authenticator).toResolvedValue(
      (sessions: SessionService, tokens: ApiTokenService, nodes: NodeService) =>
        new IdentityAuthenticator(sessions, tokens, http.secureCookies, nodes),
      [SessionServiceToken, ApiTokenServiceToken, NodeServiceToken],
    );
  });
}
