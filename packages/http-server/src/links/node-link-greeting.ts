import {
  type Clock,
  NODE_LINK_HEARTBEAT_SECONDS,
  NODE_LINK_MAX_MESSAGE_BYTES,
  NODE_LINK_PROTOCOL_VERSION,
  NodeLinkCloseCodes,
  type NodeLogHoldStore,
  type NodeOperatorFileName,
  type NodeStore,
  type NodeToServerMessage,
  type ProfileRecord,
  type ProfileSigner,
  type ProfileStore,
} from '@svc/domain';
import type { Logger } from 'pino';
import type { LinkBudgetLimits } from './link-budget-meter.js';
import type { NodeLink } from './node-link.js';
import type { NodeLinkRegistry } from './node-link-registry.js';
import { operatorFileMessage } from './operator-file-message.js';

/** What answering a hello needs. */
export interface NodeLinkGreetingDependencies {
  store: NodeStore;
  profileStore: ProfileStore;
  clock: Clock;
  logger: Logger;
  budget: LinkBudgetLimits;
  hold?: NodeLogHoldStore;
  listsDigest?: (profile: ProfileRecord) => Promise<string>;
  operatorFiles?: () => Promise<{ file: NodeOperatorFileName; version: number; document: unknown }[]>;
  signer?: ProfileSigner;
}

/**
 * Answers a hello (docs/node-link-protocol.md): records the node's version and shapes, and welcomes it when its
 * profile still exists (else closes the link as revoked). Returns whether the link was welcomed.
 */
export async function greetNodeLink(
  deps: NodeLinkGreetingDependencies,
  links: NodeLinkRegistry,
  link: NodeLink,
  message: Extract<NodeToServerMessage, { type: 'hello' }>,
): Promise<boolean> {
  link.version = message.version;
  link.shapes = new Set(message.shapes);
  await deps.store.touch(link.nodeId, deps.clock.now(), {
    version: message.version,
    shapes: [...link.shapes],
  });
  const profile = await deps.profileStore.find(link.orgId, link.profileId);
  if (profile === null) {
    link.socket.close(NodeLinkCloseCodes.revoked, 'node_revoked');
    return false;
  }
  // Recorded before the welcome, so a welcomed node reads online on every server.
  if (deps.hold === undefined) await deps.store.linkSeen([link.nodeId], deps.clock.now());
  else await deps.hold.linkOpened(link.nodeId, link.linkId, deps.clock.now());
  if (!link.open) {
    // Closed during the hello: its close found it not ready, so its link state is cleared here.
    await deps.hold?.linkClosed(link.nodeId, link.linkId);
    return false;
  }
  const listsSha256 = await listsDigestOf(deps, profile, link.nodeId);
  link.ready = true;
  links.welcomed(link);
  link.send({
    type: 'welcome',
    protocol: NODE_LINK_PROTOCOL_VERSION,
    node_id: link.nodeId,
    profile_id: link.profileId,
    profile_version: profile.version,
    ...(listsSha256 === undefined ? {} : { lists_sha256: listsSha256 }),
    heartbeat_s: NODE_LINK_HEARTBEAT_SECONDS,
    max_message_bytes: NODE_LINK_MAX_MESSAGE_BYTES,
    budget: {
      bytes_per_s: deps.budget.bytesPerSecond,
      messages_per_s: deps.budget.messagesPerSecond,
    },
  });
  return true;
}

/** Sends a welcomed link the operator files as published now (their changes follow as they happen). */
export async function sendOperatorFiles(deps: NodeLinkGreetingDependencies, link: NodeLink): Promise<void> {
  if (deps.operatorFiles === undefined) return;
  try {
    for (const { file, version, document } of await deps.operatorFiles()) {
      link.send(operatorFileMessage(deps.signer, file, version, document));
    }
  } catch (error) {
    deps.logger.warn({ err: error, nodeId: link.nodeId }, 'could not send the operator files to a node');
  }
}

/** The lists digest for a welcome; undefined (the node then keeps its lists) when it cannot be worked out. */
async function listsDigestOf(
  deps: NodeLinkGreetingDependencies,
  profile: ProfileRecord,
  nodeId: string,
): Promise<string | undefined> {
  try {
    return await deps.listsDigest?.(profile);
  } catch (error) {
    deps.logger.warn({ err: error, nodeId }, 'could not work out a node’s lists digest');
    return undefined;
  }
}
