export * from './allowance.schemas.js';
export * from './device-policy.schemas.js';
export * from './device-policy-document.js';
export * from './device-policy-references.js';
export * from './policy-references.js';
export * from './schedule-assignment.schemas.js';
