/** Schedules a callback after a delay; returns what cancels it. The domain's only timer. */
export const Timers = Symbol.for('svc.Timers');
export interface Timers {
  after(ms: number, callback: () => void): () => void;
}
