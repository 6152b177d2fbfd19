// The decision function and what it decides with, shared with the cloud edge and `svc simulate`.
export * from '@svc/domain/filtering';
export * from './credentials.js';
export * from './enrol.js';
export * from './hourly-totals.js';
export * from './list-cache.js';
export * from './log-batches.js';
export * from './node-agent.js';
export * from './node-agent.options.js';
export * from './node-client.js';
export * from './node-filter.js';
export * from './profile-verification.js';
export * from './query-device.js';
