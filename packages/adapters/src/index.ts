export * from './memory/in-process.message-bus.js';
export * from './memory/memory.mailer.js';
export * from './memory/memory-idempotency.store.js';
export * from './memory/memory-outbox.js';
export * from './system/crypto-random.js';
export * from './system/hmac-keyed-hash.js';
export * from './system/server-secret.js';
export * from './system/system-clock.js';
