export * from './credentials.js';
export * from './enrol.js';
export * from './log-batches.js';
export * from './node-agent.js';
export * from './node-client.js';
export * from './profile-verification.js';
