import type { Clock } from '@svc/domain';

/** A clock the test moves by hand; it starts at the real time so stored dates look ordinary. */
export class ManualClock implements Clock {
  private current = new Date();

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
