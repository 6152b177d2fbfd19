import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { NodeService } from '@svc/domain';
import type { Container } from 'inversify';
import type { NodeAlertScheduler } from '../composition/node-alert.scheduler.js';
import type { NodeLogHoldScheduler } from '../composition/node-log-hold.scheduler.js';
import {
  NodeAlertSchedulerToken,
  NodeLinkHubToken,
  NodeLogHoldSchedulerToken,
  NodeServiceToken,
} from '../composition/tokens.js';
import type { Authenticator } from '../http/principal.js';
import type { NodeLinkHub } from '../links/node-link-hub.js';
import { nodeRoutes } from '../routes/node.routes.js';
import { nodeListRoutes } from '../routes/node-list.routes.js';
import { nodeSelfRoutes } from '../routes/node-self.routes.js';
import type { AnyRoute } from '../routes/route-definition.js';

/** Handles an HTTP upgrade request of the server (the node link is the only WebSocket). */
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** What self-hosted nodes add to the application: their routes and the WebSocket of their links. */
export interface NodeParts {
  routes: AnyRoute[];
  upgrade: UpgradeHandler;
  /** Closes every link, so that shutdown does not wait on them. */
  closeLinks(): Promise<void>;
}

/** Resolves the node use cases, the link hub, the alert and hold schedulers, and builds the node routes (owner and node side). */
export async function resolveNodeParts(
  container: Container,
  authenticator: Authenticator,
  baseUrl: string,
): Promise<NodeParts> {
  const [nodes, hub] = await Promise.all([
    container.getAsync<NodeService>(NodeServiceToken),
    container.getAsync<NodeLinkHub>(NodeLinkHubToken),
  ]);
  await container.getAsync<NodeAlertScheduler>(NodeAlertSchedulerToken);
  await container.getAsync<NodeLogHoldScheduler>(NodeLogHoldSchedulerToken);
  return {
    routes: [...nodeRoutes(nodes), ...nodeSelfRoutes(nodes, baseUrl), ...nodeListRoutes(nodes)],
    upgrade: (req, socket, head) => hub.upgrade(authenticator, req, socket, head),
    closeLinks: () => hub.close(),
  };
}
