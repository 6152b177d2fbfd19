import type { Allowance } from '../policies/allowance.schemas.js';
import type { ScheduleAssignment } from '../policies/schedule-assignment.schemas.js';
import type { ProfileRules } from '../rules/rules.schemas.js';
import type { Schedule } from '../schedules/schedule.schemas.js';
import type { ParentalSettings, ProfileSettings, SecuritySettings } from './profile.schemas.js';

/** A profile's rules as stored: patterns already normalised (spec 2.4). */
export type StoredRules = ProfileRules;

/** A profile as stored. */
export interface ProfileRecord {
  id: string;
  orgId: string;
  name: string;
  version: number;
  security: SecuritySettings;
  parental: ParentalSettings;
  settings: ProfileSettings;
  rules: StoredRules;
  /** Blocklist ids enabled by id (GET/PUT /v1/profiles/{id}/lists). */
  lists: number[];
  /** Named weekly windows, read in `settings.time_zone` (GET/PUT /v1/profiles/{id}/schedules). */
  schedules: Schedule[];
  /** The schedule during which everything but allow rules is blocked; null for none (issue 38). */
  bedtime: string | null;
  /** What each schedule limits or lifts, by item (PUT /v1/profiles/{id}/schedules). */
  scheduleAssignments: ScheduleAssignment[];
  /**
   * Timed allowances (POST /v1/profiles/{id}/allowances), as the API shows them. Expired ones may linger until
   * the next allowance write prunes them: every read filters them by the clock (ADR 0044).
   */
  allowances: Allowance[];
  suspended: boolean;
  /**
   * End of the owner's timed pause (POST /v1/profiles/{id}/pause), exclusive; null when never paused or
   * resumed. Kept after it passes: the edge ends a pause by its own clock, so no write is needed then.
   */
  pausedUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Rules of a new profile. */
export const NO_RULES: StoredRules = { deny: [], allow: [], rewrites: [] };
