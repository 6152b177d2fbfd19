/** The only source of the current time in the domain. */
export const Clock = Symbol.for('svc.Clock');
export interface Clock {
  now(): Date;
}
