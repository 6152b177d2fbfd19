export * from './node-client.js';
