import type { Timers } from '@svc/domain';

/** Timers on the event loop; they never keep the process alive on their own. */
export class SystemTimers implements Timers {
  after(ms: number, callback: () => void): () => void {
    const timer = setTimeout(callback, ms);
    timer.unref();
    return () => clearTimeout(timer);
  }
}
