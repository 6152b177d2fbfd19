import { DomainError } from './domain-error.js';

/**
 * Optimistic concurrency (spec 4.1.3): a write that names the version it read fails with 412 version_mismatch
 * when the resource moved on, and changes nothing. Without an expected version the write is unconditional.
 */
export function assertExpectedVersion(expected: number | undefined, current: number): void {
  if (expected !== undefined && expected !== current) {
    throw new DomainError(
      'version_mismatch',
      `The resource is at version ${current}, not ${expected}; read it again.`,
    );
  }
}
