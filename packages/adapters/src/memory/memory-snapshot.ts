/**
 * State of an in-memory adapter that a transaction can roll back: the unit of work takes a snapshot before a
 * run and restores it when the run fails, so memory stores keep the all-or-nothing promise of a transaction.
 */
export interface Snapshottable {
  snapshot(): unknown;
  restore(snapshot: unknown): void;
}
