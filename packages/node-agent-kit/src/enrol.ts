import { createClient } from '@svc/sdk';
import type { CredentialStore, NodeCredentials } from './credentials.js';

/** Options of {@link enrolNode}. */
export interface EnrolOptions {
  /** The API's base address (without `/v1`). */
  baseUrl: string;
  /** The one-time code from POST /v1/profiles/{id}/nodes. */
  enrolmentCode: string;
  /** The node software's version. */
  version: string;
  /** The query shapes the node answers. */
  shapes: string[];
  store: CredentialStore;
}

/**
 * Exchanges an enrolment code for the node token (POST /v1/nodes/enrol) and persists it with the profile
 * signing keys before returning, since the token is shown only once.
 */
export async function enrolNode(options: EnrolOptions): Promise<NodeCredentials> {
  const client = createClient({ baseUrl: options.baseUrl });
  const enrolled = await client.nodes.enrol({
    enrolment_code: options.enrolmentCode,
    version: options.version,
    shapes: options.shapes,
  });
  const credentials: NodeCredentials = {
    nodeId: enrolled.node.id,
    profileId: enrolled.node.profile_id,
    nodeToken: enrolled.node_token,
    profileKeys: enrolled.profile_pubkey,
  };
  await options.store.save(credentials);
  return credentials;
}
