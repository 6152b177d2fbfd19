// The node's plain and stream listeners, shared with examples/reference-node (one copy, ADR 0051).

export type { QueryOrigin, ResolvedAnswer } from '../resolving/dns-resolver.js';
export * from './do53-listener.js';
export { answerDohRequest, DOH_PATH } from './doh-request.js';
export * from './stream-listener.js';
export * from './udp-listener.js';
