import {
  type BusSubscription,
  EdgeDocumentHead,
  LISTS_CHANGED_SUBJECT,
  type MessageBus,
  NODE_OPERATOR_FILES,
  NODE_REVOKED_SUBJECT,
  NodeLinkCloseCodes,
  OPERATOR_CHANGED_SUBJECT,
  type ProfileSigner,
} from '@svc/domain';
import type { NodeLinkRegistry } from './node-link-registry.js';
import { operatorFileMessage } from './operator-file-message.js';

/**
 * Passes on to the links what changes elsewhere, as the bus announces it: a published profile document
 * (`profile_changed`, or the close of a deleted profile's links), a new operator file version, new list
 * versions, a revoked node.
 */
export async function subscribeLinksToChanges(
  bus: MessageBus,
  links: NodeLinkRegistry,
  signer: ProfileSigner | undefined,
): Promise<BusSubscription[]> {
  return [
    await bus.subscribe('profiles.>', (delivery) => profilePublished(links, delivery.payload)),
    // A new operator file version: every linked node gets the part in its scope.
    await bus.subscribe(OPERATOR_CHANGED_SUBJECT, (delivery) => {
      const changed = delivery.payload as { file?: unknown; version?: unknown; document?: unknown };
      const file = NODE_OPERATOR_FILES.find((name) => name === changed.file);
      if (file === undefined || typeof changed.version !== 'number') return;
      const message = operatorFileMessage(signer, file, changed.version, changed.document);
      for (const link of links.all()) if (link.ready) link.send(message);
    }),
    // New list versions: every linked node compares its manifest's digest with a fresh document's.
    await bus.subscribe(LISTS_CHANGED_SUBJECT, () => {
      for (const link of links.all()) if (link.ready) link.send({ type: 'lists_changed' });
    }),
    await bus.subscribe(NODE_REVOKED_SUBJECT, (delivery) => {
      const nodeId = (delivery.payload as { node_id?: unknown }).node_id;
      if (typeof nodeId === 'string')
        links.of(nodeId)?.socket.close(NodeLinkCloseCodes.revoked, 'node_revoked');
    }),
  ];
}

function profilePublished(links: NodeLinkRegistry, payload: unknown): void {
  const head = EdgeDocumentHead.safeParse(payload);
  if (!head.success) return;
  const document = head.data;
  for (const link of links.all()) {
    if (link.profileId !== document.id) continue;
    if (document.kind === 'tombstone') link.socket.close(NodeLinkCloseCodes.revoked, 'node_revoked');
    else if (link.ready)
      link.send({ type: 'profile_changed', profile_id: document.id, version: document.version });
  }
}
