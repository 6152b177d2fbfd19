// The node's query log and its relay to the API, shared with examples/reference-node (one copy, ADR 0051).
export * from './held-rows.js';
export * from './log-batch-sender.js';
export * from './query-log-store.js';
export * from './relayed-query.js';
export * from './relayed-query-handler.js';
