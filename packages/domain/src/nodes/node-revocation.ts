import type { AccountNodesRevocation } from '../identity/account-nodes-revocation.ports.js';
import type { NodeRevocationScope } from './node.ports.js';
import { NODE_REVOKED_SUBJECT } from './node-presence.ports.js';

/**
 * Revokes every node of an organisation inside `tx` (account deletion, spec 3: "sessions, tokens and nodes
 * revoked", and they stay revoked if the deletion is cancelled), announcing each so that its link closes.
 */
async function revokeOrganisationNodes(tx: NodeRevocationScope, orgId: string, at: Date): Promise<void> {
  for (const nodeId of await tx.nodes.revokeAll(orgId, at)) {
    await tx.outbox.enqueue({ subject: NODE_REVOKED_SUBJECT, payload: { node_id: nodeId } });
  }
}

/** Account deletion's port to this context ({@link AccountNodesRevocation}), bound by the composition root. */
export const accountNodesRevocation: AccountNodesRevocation<NodeRevocationScope> = {
  revokeOrganisationNodes,
};
