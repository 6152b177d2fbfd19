export * from './system/crypto-random.js';
export * from './system/hmac-keyed-hash.js';
export * from './system/server-secret.js';
export * from './system/system-clock.js';
