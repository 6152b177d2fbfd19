import type { SecretBox } from '../identity/identity.ports.js';
import type { Clock } from '../shared/clock.ports.js';
import { DomainError } from '../shared/domain-error.js';
import type { IdempotencyStore, StoredResponse } from './idempotency.ports.js';

/** Replay window of a completed key (spec section 8). */
export const IDEMPOTENCY_REPLAY_MS = 24 * 60 * 60 * 1000;
/** A running key older than this belonged to a request that died with its server; it may be taken over. */
export const IDEMPOTENCY_RUNNING_LEASE_MS = 60 * 1000;

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** Throws 400 bad_idempotency_key unless `key` is 1 to 255 visible ASCII characters (spec 4.1.5). */
export function assertIdempotencyKey(key: string): void {
  if (!KEY_PATTERN.test(key)) {
    throw new DomainError(
      'bad_idempotency_key',
      'Idempotency-Key must be 1 to 255 visible ASCII characters.',
    );
  }
}

/** The outcome of starting an idempotent request. */
export type IdempotencyStart = { kind: 'proceed' } | { kind: 'replay'; response: StoredResponse };

/**
 * The Idempotency-Key state machine of spec section 3: (none) → running → stored for 24 h, or running →
 * nothing stored when the first request fails. A stored body is sealed with the server key: some first
 * answers carry a secret shown once (an API token, an enrolment code), and a replay must give the client
 * that lost the first answer the same one, while a copy of the database must give nobody any (ADR 0018).
 */
export class IdempotencyService {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly clock: Clock,
    private readonly box: SecretBox,
  ) {}

  /**
   * Claims `key` for a request with `fingerprint` in `scope` (an account). Proceeds for a new key, replays a
   * completed one with the same fingerprint, and refuses the rest with 409 idempotency_in_progress or
   * idempotency_key_reused.
   */
  async start(scope: string, key: string, fingerprint: string): Promise<IdempotencyStart> {
    assertIdempotencyKey(key);
    const now = this.clock.now();
    const claim = await this.store.claim(
      { scope, key, fingerprint, createdAt: now, expiresAt: new Date(now.getTime() + IDEMPOTENCY_REPLAY_MS) },
      new Date(now.getTime() - IDEMPOTENCY_RUNNING_LEASE_MS),
    );
    if (claim.claimed) return { kind: 'proceed' };
    const { existing } = claim;
    if (existing.fingerprint !== fingerprint) {
      throw new DomainError(
        'idempotency_key_reused',
        'This Idempotency-Key was already used with a different request.',
      );
    }
    if (existing.state === 'running' || existing.response === null) {
      throw new DomainError(
        'idempotency_in_progress',
        'A request with this Idempotency-Key is still running.',
        {
          retryAfter: 1,
        },
      );
    }
    return {
      kind: 'replay',
      response: { ...existing.response, body: this.box.open(existing.response.body) },
    };
  }

  /** Records the outcome of a request that proceeded: a success is kept for replay, a failure is forgotten. */
  async finish(scope: string, key: string, response: StoredResponse): Promise<void> {
    if (response.status >= 200 && response.status < 300) {
      const expiresAt = new Date(this.clock.now().getTime() + IDEMPOTENCY_REPLAY_MS);
      await this.store.complete(scope, key, { ...response, body: this.box.seal(response.body) }, expiresAt);
    } else {
      await this.store.release(scope, key);
    }
  }

  /** Forgets the key of a request that proceeded and then failed before producing a response. */
  async abandon(scope: string, key: string): Promise<void> {
    await this.store.release(scope, key);
  }
}
