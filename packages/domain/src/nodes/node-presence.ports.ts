/**
 * Which nodes hold a link to this API server, for the `connected` field of node records. The link hub of the
 * HTTP server implements it; without one every node reads as not connected.
 */
export const NodePresence = Symbol.for('svc.NodePresence');
export interface NodePresence {
  isConnected(nodeId: string): boolean;
}

/** Bus subject announcing a revoked node, so that the server holding its link closes it (in the outbox). */
export const NODE_REVOKED_SUBJECT = 'nodes.revoked';
