/**
 * What account deletion asks of the nodes context inside its transaction (spec 3: "sessions, tokens and nodes
 * revoked"): revoke every node of the organisation and announce each, so that its link closes. Identity owns
 * the port so that it imports nothing of nodes (nodes build on identity's accounts, not the other way round);
 * the nodes context implements it (`accountNodesRevocation`) and the composition root hands it over. `Scope`
 * is what the implementation uses of the transaction: account deletion's unit of work offers it as well.
 */
export interface AccountNodesRevocation<Scope> {
  /** Revokes every node of `orgId` at `at` inside `tx`; they stay revoked if the deletion is cancelled. */
  revokeOrganisationNodes(tx: Scope, orgId: string, at: Date): Promise<void>;
}
