import { DomainError, type LoginThrottle, type ThrottledAttempt } from '@svc/domain';

/** First delay after a failure and its ceiling (spec 5.2.3 and section 8). */
const BASE_DELAY_MS = 100;
const MAX_DELAY_MS = 5_000;
/** Failures older than this no longer slow anyone down. */
const FORGET_AFTER_MS = 15 * 60_000;
/** Wrong second factors that lock the second-factor step, and for how long after the last of them. */
const SECOND_FACTOR_LOCK_FAILURES = 10;
const SECOND_FACTOR_LOCK_MS = FORGET_AFTER_MS;
/** Keys beyond which forgotten entries are swept. */
const SWEEP_ABOVE = 100_000;

interface KeyState {
  failures: number;
  secondFactorFailures: number;
  lastFailureAt: number;
  /** An admitted attempt of this key has not ended yet. */
  busy: boolean;
}

function rateLimited(waitMs: number, detail: string): DomainError {
  return new DomainError('rate_limited', detail, { retryAfter: Math.max(1, Math.ceil(waitMs / 1000)) });
}

/**
 * The sign-in throttle of one server, by key (address and account): each key records its failures, when the
 * last one was, and whether an attempt is running. Time comes from `now` (the server's clock), so the ladder
 * is the same whatever the machine's load.
 */
export class MemoryLoginThrottle implements LoginThrottle {
  private readonly states = new Map<string, KeyState>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The delay the keys' failures have earned, in milliseconds, counted from their last failure. */
  delayFor(keys: readonly string[]): number {
    let failures = 0;
    for (const key of keys) failures = Math.max(failures, this.live(key)?.failures ?? 0);
    return failures === 0 ? 0 : Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (failures - 1));
  }

  admit(keys: readonly string[]): ThrottledAttempt {
    const now = this.now();
    let waitMs = 0;
    for (const key of keys) {
      const state = this.live(key);
      if (state === undefined) continue;
      if (state.busy)
        throw rateLimited(0, 'Another sign-in attempt for this account is running; retry later.');
      waitMs = Math.max(waitMs, state.lastFailureAt + this.delayFor([key]) - now);
    }
    if (waitMs > 0) throw rateLimited(waitMs, 'Too many failed sign-in attempts; retry later.');
    const states = keys.map((key) => this.stateOf(key));
    for (const state of states) state.busy = true;
    let ended = false;
    const end = (outcome: (state: KeyState) => void) => {
      if (ended) return;
      ended = true;
      for (const state of states) {
        state.busy = false;
        outcome(state);
      }
      this.forgetIdle(keys);
    };
    return {
      assertSecondFactorOpen: () => {
        const at = this.now();
        for (const state of states) {
          const lockedFor = state.lastFailureAt + SECOND_FACTOR_LOCK_MS - at;
          if (state.secondFactorFailures >= SECOND_FACTOR_LOCK_FAILURES && lockedFor > 0) {
            throw rateLimited(
              lockedFor,
              'Too many wrong codes: the second-factor step is locked for a while.',
            );
          }
        }
      },
      fail: (step) =>
        end((state) => {
          state.failures = Math.min(state.failures + 1, 32);
          if (step === 'second_factor') state.secondFactorFailures += 1;
          state.lastFailureAt = this.now();
        }),
      succeed: () =>
        end((state) => {
          state.failures = 0;
          state.secondFactorFailures = 0;
        }),
      end: () => end(() => undefined),
    };
  }

  /** The key's state unless it has no failure left to remember (then it is dropped). */
  private live(key: string): KeyState | undefined {
    const state = this.states.get(key);
    if (state === undefined) return undefined;
    if (!state.busy && this.now() - state.lastFailureAt > FORGET_AFTER_MS) {
      this.states.delete(key);
      return undefined;
    }
    return state;
  }

  private stateOf(key: string): KeyState {
    let state = this.live(key);
    if (state === undefined) {
      if (this.states.size > SWEEP_ABOVE) this.sweep();
      state = { failures: 0, secondFactorFailures: 0, lastFailureAt: Number.NEGATIVE_INFINITY, busy: false };
      this.states.set(key, state);
    }
    return state;
  }

  /** Drops the keys of an ended attempt that have nothing to remember (a first attempt that succeeded). */
  private forgetIdle(keys: readonly string[]): void {
    for (const key of keys) {
      const state = this.states.get(key);
      if (state !== undefined && !state.busy && state.failures === 0) this.states.delete(key);
    }
  }

  private sweep(): void {
    for (const key of [...this.states.keys()]) this.live(key);
  }
}
