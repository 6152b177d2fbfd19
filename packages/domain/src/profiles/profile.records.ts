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
  suspended: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** Rules of a new profile. */
export const NO_RULES: StoredRules = { deny: [], allow: [], rewrites: [] };
