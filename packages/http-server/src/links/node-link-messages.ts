import {
  type NodeHourlyTotals,
  type NodeHourlyTotalsService,
  NodeLinkCloseCodes,
  type NodeLogBatchService,
  NodeToServerMessage,
} from '@svc/domain';
import type { Logger } from 'pino';
import type { NodeLink } from './node-link.js';

/** What the hub does with each type of message a node sends, one handler per type (the protocol's list). */
export type NodeMessageHandlers = {
  [Type in NodeToServerMessage['type']]: (
    link: NodeLink,
    message: Extract<NodeToServerMessage, { type: Type }>,
  ) => Promise<void> | void;
};

/**
 * The message a node sent, or undefined when it is not one to handle: text that is no JSON is answered
 * `bad_request`; a type the handlers know with a bad shape is answered `validation_failed` (a bad hello also
 * closes the link); a type added by a later version of the protocol is ignored.
 */
export function readNodeMessage(
  link: NodeLink,
  text: string,
  handlers: NodeMessageHandlers,
): NodeToServerMessage | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    link.send({ type: 'error', code: 'bad_request', detail: 'messages are JSON objects' });
    return undefined;
  }
  const parsed = NodeToServerMessage.safeParse(raw);
  if (parsed.success) return parsed.data;
  const type = (raw as { type?: unknown } | null)?.type;
  if (typeof type === 'string' && Object.hasOwn(handlers, type)) {
    link.send({ type: 'error', code: 'validation_failed', detail: parsed.error.message });
    if (type === 'hello') link.socket.close(NodeLinkCloseCodes.protocolError, 'bad hello');
  }
  return undefined;
}

/** Hands a message to the handler of its type. */
export function dispatchNodeMessage(
  link: NodeLink,
  message: NodeToServerMessage,
  handlers: NodeMessageHandlers,
): Promise<void> | void {
  // The table is typed per message type; TypeScript cannot correlate the union with its key here.
  const handler = handlers[message.type] as (
    link: NodeLink,
    message: NodeToServerMessage,
  ) => Promise<void> | void;
  return handler(link, message);
}

/** What settling a node's log batches and hourly totals needs. */
export interface NodeSettlementDependencies {
  logBatches: NodeLogBatchService;
  hourlyTotals?: NodeHourlyTotalsService;
  logger: Logger;
}

/** Stores (or not) a log batch and acknowledges it once settled (docs/node-link-protocol.md). */
export async function settleLogBatch(
  deps: NodeSettlementDependencies,
  link: NodeLink,
  id: string,
  rows: readonly unknown[],
): Promise<void> {
  try {
    const settled = await deps.logBatches.receive(link, id, rows);
    // Each refusal on its own line, with the field and why but never the row (it holds the client's data).
    for (const refusal of settled.refused ?? [])
      deps.logger.warn(
        {
          nodeId: link.nodeId,
          batchId: id,
          row: refusal.index,
          field: refusal.field,
          reason: refusal.reason,
        },
        'refused a node log row',
      );
    link.send({ type: 'log_batch_ack', id, ...settled });
  } catch (error) {
    deps.logger.error({ err: error, nodeId: link.nodeId }, 'could not store a node log batch');
    link.send({
      type: 'log_batch_ack',
      id,
      accepted: 0,
      outcome: 'rejected',
      reason: 'storage_unavailable',
    });
  }
}

/** Adds a node's hourly totals to the cloud's and acknowledges them (docs/node-link-protocol.md). */
export async function settleHourlyTotals(
  deps: NodeSettlementDependencies,
  link: NodeLink,
  message: NodeHourlyTotals,
): Promise<void> {
  if (deps.hourlyTotals === undefined) {
    link.send({ type: 'hourly_totals_ack', id: message.id, outcome: 'not_kept' });
    return;
  }
  try {
    const settled = await deps.hourlyTotals.receive(link, message);
    link.send({ type: 'hourly_totals_ack', id: message.id, ...settled });
  } catch (error) {
    deps.logger.error({ err: error, nodeId: link.nodeId }, 'could not store a node’s hourly totals');
    link.send({
      type: 'hourly_totals_ack',
      id: message.id,
      outcome: 'rejected',
      reason: 'storage_unavailable',
    });
  }
}
