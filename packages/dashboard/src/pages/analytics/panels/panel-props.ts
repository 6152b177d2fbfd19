import type { TimeRange } from '../time-range.js';

/** What every analytics panel is given: the profile, the window shown, and links into the logs. */
export interface PanelProps {
  profileId: string;
  range: TimeRange;
  /** The logs of this range, searched with `filters` (a query string of the logs page). */
  logs: (filters: Record<string, string>) => string;
}
