import type { Schedule } from '../schedules/schedule.schemas.js';
import { isScheduleActive, nextScheduleChange } from '../schedules/schedule-evaluation.js';
import { zoneOffsetAt } from '../schedules/zone-offsets.js';

const DAY_MS = 86_400_000;

/**
 * The zone schedules are read in: the profile's, or UTC when this edge's zone database does not know it (a
 * zone newer than the runtime): reading the windows in UTC keeps them running, hours off, rather than never
 * or always (docs/adr/0043).
 */
function usableZone(zone: string | undefined): string {
  if (zone === undefined || zone === 'UTC') return 'UTC';
  try {
    zoneOffsetAt(zone, Date.UTC(2026, 0, 1));
    return zone;
  } catch {
    return 'UTC';
  }
}

/**
 * Whether each schedule of a document is active, cached from the instant it was evaluated until its next
 * change ({@link nextScheduleChange}), so that a query costs two comparisons per schedule it asks about and no
 * zone arithmetic. Slots are by schedule name; a name the document does not define gets a slot that is never
 * active. A query without a time (`at` minus infinity) finds every schedule inactive.
 */
export class ScheduleStates {
  private readonly schedules: (Schedule | undefined)[];
  private readonly slots = new Map<string, number>();
  private readonly zone: string;
  private readonly active: Uint8Array;
  private readonly from: Float64Array;
  private readonly until: Float64Array;

  constructor(schedules: readonly Schedule[], zone: string | undefined) {
    this.zone = usableZone(zone);
    this.schedules = [...schedules, undefined];
    schedules.forEach((schedule, index) => {
      if (!this.slots.has(schedule.name)) this.slots.set(schedule.name, index);
    });
    const count = this.schedules.length;
    this.active = new Uint8Array(count);
    this.from = new Float64Array(count).fill(Number.POSITIVE_INFINITY);
    this.until = new Float64Array(count).fill(Number.NEGATIVE_INFINITY);
    // The last slot, for names no schedule has: inactive at every instant.
    this.from[count - 1] = Number.NEGATIVE_INFINITY;
    this.until[count - 1] = Number.POSITIVE_INFINITY;
  }

  /** The slot of a schedule name (the never-active slot for an unknown name). */
  slotOf(name: string): number {
    return this.slots.get(name) ?? this.schedules.length - 1;
  }

  /** Whether the schedule of `slot` is active at `at` (Unix ms; minus infinity: no time, inactive). */
  isActive(slot: number, at: number): boolean {
    if (at >= (this.from[slot] as number) && at < (this.until[slot] as number))
      return this.active[slot] === 1;
    if (!Number.isFinite(at)) return false;
    return this.evaluate(slot, at);
  }

  private evaluate(slot: number, at: number): boolean {
    const schedule = this.schedules[slot] as Schedule;
    const active = isScheduleActive(schedule, this.zone, at);
    // No change within a week (a schedule covering every minute): re-read a day later.
    const next = nextScheduleChange(schedule, this.zone, at) ?? at + DAY_MS;
    this.active[slot] = active ? 1 : 0;
    this.from[slot] = at;
    this.until[slot] = next;
    return active;
  }
}
