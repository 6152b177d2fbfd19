import type { Clock } from '@svc/domain';

/** The wall clock. */
export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}
