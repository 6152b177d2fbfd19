/**
 * A response kept for replay: status, the headers worth replaying, and the body bytes as text (in the store,
 * sealed with the server key by the service).
 */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One Idempotency-Key as stored: `running` while the first request runs, `completed` once it succeeded. */
export interface IdempotencyRecord {
  scope: string;
  key: string;
  fingerprint: string;
  state: 'running' | 'completed';
  response: StoredResponse | null;
  createdAt: Date;
  expiresAt: Date;
}

/** What a claim attempt found. */
export type IdempotencyClaim = { claimed: true } | { claimed: false; existing: IdempotencyRecord };

/**
 * Storage of idempotency keys. `claim` must be atomic across connections and servers: of concurrent claims of
 * one (scope, key) exactly one wins.
 */
export const IdempotencyStore = Symbol.for('svc.IdempotencyStore');
export interface IdempotencyStore {
  /**
   * Inserts a `running` record for (scope, key) unless a live record holds it. A record is live while it is
   * completed and not expired, or running and younger than `staleRunningBefore` (a running record older than
   * that belonged to a request whose server died, and is taken over).
   */
  claim(
    record: { scope: string; key: string; fingerprint: string; createdAt: Date; expiresAt: Date },
    staleRunningBefore: Date,
  ): Promise<IdempotencyClaim>;
  /** Marks the running record completed with its response, kept until `expiresAt`. */
  complete(scope: string, key: string, response: StoredResponse, expiresAt: Date): Promise<void>;
  /** Forgets a running record whose request failed, so the key can be used again. */
  release(scope: string, key: string): Promise<void>;
  /** Deletes records that expired before `now`; returns how many. */
  purgeExpired(now: Date): Promise<number>;
}
