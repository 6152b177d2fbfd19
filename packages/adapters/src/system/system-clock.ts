import type { Clock } from '@svc/domain';

/** The wall clock. */
export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}

/** A clock that moves only when told to: for tests and simulations. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date = new Date('2026-01-01T00:00:00Z')) {
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
