import {
  ApiTokenService,
  type CursorSealer,
  type IdentityDependencies,
  LogQueryRelay,
  NodePresence,
  OfflineLogQueryRelay,
} from '@svc/domain';
import { ContainerModule } from 'inversify';
import { ApiTokenServiceToken, CursorSealerToken, IdentityDependenciesToken } from './use-case.tokens.js';

/** Nobody holds a link in a process without the HTTP server's node links: every node reads as not connected. */
const NO_LINKS: NodePresence = { isConnected: () => false };

/**
 * What a process hosting the use cases without serving requests binds where the HTTP server binds its own (the
 * CLI's storage commands): no node is ever connected, a query relayed to a node finds none (503 node_offline),
 * and API tokens are checked by the plain service, without the server's cache.
 */
export function standaloneHostModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<NodePresence>(NodePresence).toConstantValue(NO_LINKS);
    bind<LogQueryRelay>(LogQueryRelay).toConstantValue(new OfflineLogQueryRelay());
    bind<ApiTokenService>(ApiTokenServiceToken).toResolvedValue(
      (deps: IdentityDependencies, cursors: CursorSealer) => new ApiTokenService(deps, cursors),
      [IdentityDependenciesToken, CursorSealerToken],
    );
  });
}
