import { DomainError } from '@svc/domain';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/**
 * Per-client-IP limit of unauthenticated routes (spec 4.1.8): a token bucket per address, kept per server.
 */
export class ClientIpRateLimiter {
  private readonly limiter: RateLimiterMemory;

  constructor(pointsPerMinute: number) {
    this.limiter = new RateLimiterMemory({ points: pointsPerMinute, duration: 60 });
  }

  /** Counts one request of `clientIp`; throws 429 rate_limited with the seconds to wait when over the limit. */
  async consume(clientIp: string): Promise<void> {
    try {
      await this.limiter.consume(clientIp);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        throw new DomainError('rate_limited', 'Too many requests from this address; retry later.', {
          retryAfter: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)),
        });
      }
      throw rejection;
    }
  }
}
