import { DomainError } from '@svc/domain';
import { clientNetworkOf } from './client-network.js';

/** One address's window: requests counted since `resetsAt - 60 s`. */
interface AddressWindow {
  count: number;
  resetsAt: number;
}

const WINDOW_MS = 60_000;

/**
 * Per-client-IP limit of unauthenticated routes (spec 4.1.8), kept per server: a fixed one-minute window per
 * client (an IPv4 address, or an IPv6 /64: see {@link clientNetworkOf}), opened by its first request, as
 * rate-limiter-flexible's memory limiter counted before. It is a map lookup and a counter, synchronous,
 * because every unauthenticated request passes through it.
 */
export class ClientIpRateLimiter {
  private readonly windows = new Map<string, AddressWindow>();
  private nextSweepAt = 0;

  constructor(
    private readonly pointsPerMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request of `clientIp`; throws 429 rate_limited with the seconds to wait when over the limit. */
  consume(clientIp: string): void {
    const now = this.now();
    if (now >= this.nextSweepAt) this.sweep(now);
    // Only an IPv6 address has a colon: IPv4 callers, most of them, are counted without parsing.
    const client = clientIp.includes(':') ? clientNetworkOf(clientIp) : clientIp;
    let window = this.windows.get(client);
    if (window === undefined || window.resetsAt <= now) {
      window = { count: 0, resetsAt: now + WINDOW_MS };
      this.windows.set(client, window);
    }
    window.count += 1;
    if (window.count > this.pointsPerMinute) {
      throw new DomainError('rate_limited', 'Too many requests from this address; retry later.', {
        retryAfter: Math.max(1, Math.ceil((window.resetsAt - now) / 1000)),
      });
    }
  }

  /** Drops windows that have ended, at most once a window, so that the map holds recent addresses only. */
  private sweep(now: number): void {
    for (const [address, window] of this.windows) if (window.resetsAt <= now) this.windows.delete(address);
    this.nextSweepAt = now + WINDOW_MS;
  }
}
