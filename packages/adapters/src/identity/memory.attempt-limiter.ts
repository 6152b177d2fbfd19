import { type AttemptLimit, type AttemptLimiter, DomainError } from '@svc/domain';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/** Named attempt limits kept per server with rate-limiter-flexible token buckets. */
export class MemoryAttemptLimiter implements AttemptLimiter {
  private readonly limiters = new Map<string, RateLimiterMemory>();

  private limiterFor(limit: AttemptLimit): RateLimiterMemory {
    let limiter = this.limiters.get(limit.name);
    if (limiter === undefined) {
      limiter = new RateLimiterMemory({
        keyPrefix: limit.name,
        points: limit.points,
        duration: limit.perSeconds,
      });
      this.limiters.set(limit.name, limiter);
    }
    return limiter;
  }

  async consume(limit: AttemptLimit, key: string): Promise<void> {
    try {
      await this.limiterFor(limit).consume(key);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        throw new DomainError('rate_limited', 'Too many attempts; retry later.', {
          retryAfter: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)),
        });
      }
      throw rejection;
    }
  }
}
