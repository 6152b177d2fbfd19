import { type ClientOptions, createClient, type SvcClient } from '@svc/sdk';

/** Options of a self-hosted node's API client. */
export interface NodeClientOptions extends Omit<ClientOptions, 'token' | 'sessionCookie'> {
  /** The node token (`svcnode_…`) obtained by enrolment. */
  nodeToken: string;
}

/**
 * The API client a self-hosted node uses: the SDK with the node token as its only credential, since node
 * tokens are accepted only by node endpoints and the link (spec 5.1).
 */
export function createNodeClient(options: NodeClientOptions): SvcClient {
  if (!options.nodeToken.startsWith('svcnode_')) {
    throw new TypeError('a node token starts with svcnode_');
  }
  const { nodeToken, ...rest } = options;
  return createClient({ ...rest, token: nodeToken });
}
