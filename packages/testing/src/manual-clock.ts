import type { Clock } from '@svc/domain';

/**
 * A clock the test moves by hand. It starts at `start`, by default the real time so that stored dates look
 * ordinary (and rows an engine stamps with its own now() sort with the test's).
 */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date = new Date()) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(milliseconds: number): void {
    this.current += milliseconds;
  }

  set(to: Date): void {
    this.current = to.getTime();
  }
}
