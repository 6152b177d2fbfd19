export * from './allowance.schemas.js';
export * from './device-policy.schemas.js';
export * from './schedule-assignment.schemas.js';
export * from './document-policy.js';
export * from './policy-references.js';
export * from './profile-policy.service.js';
