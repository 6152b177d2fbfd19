import { randomUUID } from 'node:crypto';

const HOUR_MS = 3_600_000;
/** Hours kept: the API refuses older ones. */
const KEEP_HOURS = 7 * 24;
/** Most hours one message carries (docs/node-link-protocol.md). */
const HOURS_PER_MESSAGE = 48;

/** The statuses counted (spec 2.11). */
export type CountedStatus = 'allowed' | 'blocked' | 'rewritten' | 'error';

/** One hour's counts as `hourly_totals` carries them. */
export interface HourTotals {
  /** Start of the hour (UTC), RFC 3339. */
  hour: string;
  allowed: number;
  blocked: number;
  rewritten: number;
  error: number;
}

/**
 * A node's query counts by hour and status for the cloud's hourly totals (spec 4.6 rule 1), kept for every
 * log destination. Counts only grow within a run (the process: `run` is drawn at start), so sending an hour
 * again is harmless: the API adds only what grew. {@link pending} is what changed since the API last
 * acknowledged it.
 */
export class HourlyTotals {
  readonly run: string = randomUUID();
  private readonly hours = new Map<number, HourTotals>();
  /** The counts the API acknowledged, by hour, as `allowed/blocked/rewritten/error`. */
  private readonly acknowledged = new Map<number, string>();

  /** Counts one query answered at `at` (Unix ms). */
  count(status: CountedStatus, at: number = Date.now()): void {
    const hour = Math.floor(at / HOUR_MS) * HOUR_MS;
    let totals = this.hours.get(hour);
    if (totals === undefined) {
      totals = { hour: new Date(hour).toISOString(), allowed: 0, blocked: 0, rewritten: 0, error: 0 };
      this.hours.set(hour, totals);
      this.prune(hour);
    }
    totals[status] += 1;
  }

  /** The hours whose counts the API has not acknowledged as they are now, oldest first (a message's worth). */
  pending(): HourTotals[] {
    return [...this.hours.entries()]
      .filter(([hour, totals]) => this.acknowledged.get(hour) !== keyOf(totals))
      .sort(([a], [b]) => a - b)
      .slice(0, HOURS_PER_MESSAGE)
      .map(([, totals]) => ({ ...totals }));
  }

  /** Records that the API settled these counts (a copy, as sent). */
  acknowledge(sent: readonly HourTotals[]): void {
    for (const totals of sent) this.acknowledged.set(Date.parse(totals.hour), keyOf(totals));
  }

  private prune(newest: number): void {
    for (const hour of this.hours.keys()) {
      if (hour < newest - KEEP_HOURS * HOUR_MS) {
        this.hours.delete(hour);
        this.acknowledged.delete(hour);
      }
    }
  }
}

function keyOf(totals: HourTotals): string {
  return `${totals.allowed}/${totals.blocked}/${totals.rewritten}/${totals.error}`;
}
