import { z } from 'zod';
import { NodeShape, NodeSoftwareVersion } from './node.schemas.js';
import { LinkHourlyTotalsAck, NodeHourlyTotals } from './node-hourly-totals.js';
import { NodeLogRow } from './node-log-row.js';

/**
 * The link between a self-hosted node and the API (GET /v1/nodes/self/link, a WebSocket): JSON text messages,
 * each an object with a `type`. Version 1; docs/node-link-protocol.md describes the exchange. A peer ignores
 * message types it does not know (within one protocol version only types are ever added).
 */
export const NODE_LINK_PROTOCOL_VERSION = 1;
/** Seconds between the node's heartbeats; a link silent for three of them is closed by the server. */
export const NODE_LINK_HEARTBEAT_SECONDS = 30;

/**
 * Largest message a node may send, in bytes of its UTF-8 JSON text: a longer one closes the link with 1009. A
 * node splits log batches to fit (docs/node-link-protocol.md, "Sizes and budget").
 */
export const NODE_LINK_MAX_MESSAGE_BYTES = 1_048_576;

/** WebSocket close codes the server uses. */
export const NodeLinkCloseCodes = {
  /** Standard code, sent by the WebSocket layer: a message was longer than {@link NODE_LINK_MAX_MESSAGE_BYTES}. */
  messageTooBig: 1009,
  /** The node was revoked (by its owner or itself). */
  revoked: 4001,
  /** A newer link of the same node replaced this one. */
  replaced: 4002,
  /** A message broke the protocol (unparsable, unknown to version 1's required shape, hello missing). */
  protocolError: 4003,
  /** No heartbeat for three intervals. */
  silent: 4004,
  /** The link sent more bytes or messages than its budget allows (the welcome's `budget`). */
  overBudget: 4005,
} as const;

/** What one link may send a second, with a burst of one second of it (the welcome announces it). */
const NodeLinkBudget = z.object({ bytes_per_s: z.int(), messages_per_s: z.int() });

const MessageId = z.string().min(1).max(64);

/** A query result as a node answers it: spec 2.11 without the fields the API fills in. */
export const NodeQueryResult = z.object({
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
  rows: z.array(z.array(z.unknown())),
  /**
   * For tail and search: the rows as recorded (then `columns` and `rows` are ignored), so that the API fills
   * the derived columns, the node and the device names exactly as for cloud rows.
   */
  log_rows: z.array(NodeLogRow).max(1000).optional(),
  /** Ignored by the API, which seals its own cursors from `next_after`. */
  next_cursor: z.string().nullable(),
  /** The last row's position when a further page exists (tail: newest row answered; search: oldest). */
  next_after: z
    .object({ ts: z.int(), row_id: z.string().regex(/^\d{1,19}$/) })
    .nullable()
    .optional(),
  partial: z.boolean(),
  partial_reason: z.enum(['timeout', 'overload']).optional(),
});
export type NodeQueryResult = z.infer<typeof NodeQueryResult>;

/** Node → server: first message of a link, with what the node runs. */
const NodeHello = z.object({
  type: z.literal('hello'),
  protocol: z.literal(NODE_LINK_PROTOCOL_VERSION),
  version: NodeSoftwareVersion,
  shapes: z.array(NodeShape).max(64),
});
/** Node → server: keeps the link alive; answered by heartbeat_ack. */
const NodeHeartbeat = z.object({ type: z.literal('heartbeat') });
/** Node → server: the answer to a query. */
const NodeQueryAnswer = z.object({
  type: z.literal('query_result'),
  id: MessageId,
  result: NodeQueryResult,
});
/** Node → server: a query the node could not answer. */
const NodeQueryFailure = z.object({
  type: z.literal('query_error'),
  id: MessageId,
  /** `shape_unsupported` when the node does not know the shape; anything else is a node failure. */
  code: z.string().max(64),
  detail: z.string().max(1000).optional(),
});
/**
 * Node → server: query log rows the node recorded (each a {@link NodeLogRow}), stored in the cloud for a `both`
 * profile. `id` names the batch for good: a batch sent again with the same id (after a lost acknowledgement) is
 * stored once. Rows are checked one by one, so that the acknowledgement can name the bad ones.
 */
const NodeLogBatch = z.object({
  type: z.literal('log_batch'),
  id: MessageId,
  rows: z.array(z.record(z.string(), z.unknown())).max(10_000),
});
/** Node → server: the held rows up to `seq` (inclusive) of the `held_logs` messages received are kept. */
const NodeHeldLogsAck = z.object({
  type: z.literal('held_logs_ack'),
  seq: z.string().regex(/^\d{1,19}$/),
});

/** Node → server: the node applied `version` of an operator file (after checking its signature). */
const NodeOperatorFileAck = z.object({
  type: z.literal('operator_file_ack'),
  file: z.enum(['operator_blocks', 'operator_sources']),
  version: z.int().min(0),
});

/** Every message a node may send. */
export const NodeToServerMessage = z.discriminatedUnion('type', [
  NodeHello,
  NodeHeartbeat,
  NodeQueryAnswer,
  NodeQueryFailure,
  NodeLogBatch,
  NodeHeldLogsAck,
  NodeOperatorFileAck,
  NodeHourlyTotals,
]);
export type NodeToServerMessage = z.infer<typeof NodeToServerMessage>;

/** Server → node: the link is accepted (answer to hello). */
const LinkWelcome = z.object({
  type: z.literal('welcome'),
  protocol: z.literal(NODE_LINK_PROTOCOL_VERSION),
  node_id: z.uuid(),
  profile_id: z.string(),
  /** The profile's current version: fetch GET /v1/nodes/self/profile when it differs from the one applied. */
  profile_version: z.int(),
  /**
   * The digest of the profile's lists manifest (`lists.sha256` of its document): fetch the document again when
   * it differs from the one applied (lists get new versions without a new profile version).
   */
  lists_sha256: z.string().optional(),
  heartbeat_s: z.int(),
  /** Largest message the node may send; a node splits its log batches to fit. */
  max_message_bytes: z.int().optional(),
  /** What the link may send a second before it is closed with 4005. */
  budget: NodeLinkBudget.optional(),
});
const LinkHeartbeatAck = z.object({ type: z.literal('heartbeat_ack') });
/** Server → node: the profile changed; fetch the signed document again. */
const LinkProfileChanged = z.object({
  type: z.literal('profile_changed'),
  profile_id: z.string(),
  version: z.int(),
});
/**
 * Server → node: lists got new versions (a list refresh or import); fetch the profile document again and
 * download what its manifest changed (compare `lists.sha256`).
 */
const LinkListsChanged = z.object({ type: z.literal('lists_changed') });
/**
 * Server → node: the current version of an operator file (spec 3, 4.10) reduced to the entries in scope for
 * self-hosted nodes (filtering/node-operator-files.ts), sent after the welcome and on every new version.
 * Signed like profile documents when the server signs: `signature` is base64 Ed25519 over the UTF-8 bytes of
 * `svc-operator-v1\n` + file + `\n` + version + `\n` + the compact canonical JSON of `document`, by the key
 * `key_id` (public key `public_key`, one of the enrolment's `profile_pubkey`). The node answers
 * `operator_file_ack` once it applies the file.
 */
const LinkOperatorFile = z.object({
  type: z.literal('operator_file'),
  file: z.enum(['operator_blocks', 'operator_sources']),
  version: z.int().min(0),
  document: z.record(z.string(), z.unknown()),
  signature: z.string().optional(),
  key_id: z.string().optional(),
  public_key: z.string().optional(),
});
/** Server → node: a relayed log or analytics query (spec 4.6), to answer within `timeout_ms`. */
const LinkQuery = z.object({
  type: z.literal('query'),
  id: MessageId,
  /** `tail`, `search` or an analytics shape of spec 2.11. */
  shape: z.string(),
  /** The query parameters as the API validated them (from, to, filters, limit, cursor, bucket). */
  params: z.record(z.string(), z.unknown()),
  timeout_ms: z.int(),
});
/** Server → node: stop working on a query; its answer is no longer wanted. */
const LinkCancel = z.object({ type: z.literal('cancel'), id: MessageId });
/** What became of a log batch. */
const LOG_BATCH_OUTCOMES = ['stored', 'duplicate', 'not_kept', 'rejected'] as const;

/** One refused row of a rejected log batch: its index in `rows`, the field and why (sent by older servers). */
const LogBatchRowError = z.object({ row: z.int(), field: z.string(), message: z.string() });

/** One row of a log batch the cloud refused while keeping the others: its index in `rows`, the field and why. */
export const LogBatchRefusedRow = z.object({ index: z.int(), field: z.string(), reason: z.string() });
export type LogBatchRefusedRow = z.infer<typeof LogBatchRefusedRow>;

/**
 * Server → node: what became of a log batch, sent once it is settled (after the insert for `stored`).
 * `accepted` counts the rows the cloud keeps from it (for `duplicate`, those kept the first time).
 */
export const LinkLogBatchAck = z.object({
  type: z.literal('log_batch_ack'),
  id: MessageId,
  accepted: z.int(),
  /**
   * `stored`: the rows are in the cloud store, but for those in `refused`; `duplicate`: a batch with this id
   * was stored before, nothing more is written; `not_kept`: the profile's log destination keeps no node rows in
   * the cloud (only `both` does), nothing is written; `rejected`: nothing is written, see `reason`
   * (`storage_unavailable` or `batch_in_progress`, both worth sending again later; servers before per-row
   * refusals also answered `validation_failed` with `errors`).
   */
  outcome: z.enum(LOG_BATCH_OUTCOMES),
  reason: z.string().optional(),
  /** Older servers, for `validation_failed`: the first refused rows (at most 20). */
  errors: z.array(LogBatchRowError).max(20).optional(),
  /**
   * The rows refused one by one (a bad field, or a time outside the profile's retention), present when there
   * are any, whatever the outcome: they are not stored, and sending them again refuses them again.
   */
  refused: z.array(LogBatchRefusedRow).max(10_000).optional(),
  /** How many stored rows had their `answer_ips` cut to the first 64 (`NODE_LOG_ANSWER_IPS_KEPT`). */
  truncated: z.int().optional(),
});
export type LinkLogBatchAck = z.infer<typeof LinkLogBatchAck>;

/** One row the cloud edge recorded while the profile's nodes were offline, with its place in the hold. */
export const HeldLogRow = z.object({ seq: z.string().regex(/^\d{1,19}$/), row: NodeLogRow });
export type HeldLogRow = z.infer<typeof HeldLogRow>;

/**
 * Server → node: rows the cloud edge answered for the profile while its nodes were offline (spec 2.3
 * node_queue_hours), oldest first. The node answers `held_logs_ack` with the last `seq` it kept; the next
 * message follows that acknowledgement, and unacknowledged rows are sent again on the next link.
 */
const LinkHeldLogs = z.object({
  type: z.literal('held_logs'),
  rows: z.array(HeldLogRow).min(1).max(1000),
});
/** Server → node: a message was refused (the link stays unless it was hello). */
const LinkError = z.object({
  type: z.literal('error'),
  code: z.string(),
  detail: z.string(),
});

/** Every message the server may send. */
export const ServerToNodeMessage = z.discriminatedUnion('type', [
  LinkWelcome,
  LinkHeartbeatAck,
  LinkProfileChanged,
  LinkListsChanged,
  LinkOperatorFile,
  LinkQuery,
  LinkCancel,
  LinkLogBatchAck,
  LinkHeldLogs,
  LinkHourlyTotalsAck,
  LinkError,
]);
export type ServerToNodeMessage = z.infer<typeof ServerToNodeMessage>;

/** GET /v1/nodes/self/link without an upgrade: how to open the link. */
export const NodeLinkInfo = z
  .object({
    protocol: z.literal(NODE_LINK_PROTOCOL_VERSION).meta({ description: 'The link protocol’s version.' }),
    heartbeat_s: z.int().meta({ description: 'Seconds between the node’s heartbeats.' }),
    link_url: z.string().meta({
      description: 'The WebSocket address (ws: or wss:) to open with `Authorization: Bearer <node token>`.',
    }),
  })
  .meta({ id: 'NodeLinkInfo' });
export type NodeLinkInfo = z.infer<typeof NodeLinkInfo>;
