export * from '@svc/node/dns-wire';
export * from '@svc/node/filtering';
export * from '@svc/node/listeners';
export * from '@svc/node/query-log';
export * from './dns-resolver.js';
export * from './doh-listener.js';
export * from './reference-node.js';
export * from './upstream-resolver.js';
