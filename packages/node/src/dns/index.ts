// DNS messages and stream frames shared with examples/reference-node (one copy, ADR 0051).
export * from './dns-message.js';
export * from './dns-stream-frames.js';
