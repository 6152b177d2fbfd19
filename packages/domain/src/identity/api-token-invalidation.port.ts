/**
 * Drops what this process holds of an account's API tokens once they are revoked together in the store
 * (account deletion, the first verification, a password change), so that they stop on this server at once
 * rather than when a cached entry ends. Implemented by the HTTP server's caching token service.
 */
export const ApiTokenInvalidation = Symbol.for('svc.ApiTokenInvalidation');
export interface ApiTokenInvalidation {
  invalidateAccount(accountId: string): void;
}
