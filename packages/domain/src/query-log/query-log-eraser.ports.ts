/**
 * Erases everything the columnar store keeps about profiles: their query log rows, hourly totals and device
 * counts (account erasure, spec 3). Idempotent: erasing profiles that have nothing stored does nothing, so a
 * failed erasure can simply run again.
 */
export const QueryLogEraser = Symbol.for('svc.QueryLogEraser');
export interface QueryLogEraser {
  eraseProfiles(profileIds: readonly string[]): Promise<void>;
}

/** The eraser where no columnar store is configured (memory storage): no query logs are kept, so none to erase. */
export class NoopQueryLogEraser implements QueryLogEraser {
  async eraseProfiles(): Promise<void> {}
}
