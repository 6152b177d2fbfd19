import {
  NO_RULES,
  ParentalSettings,
  type ProfileRecord,
  ProfileSettings,
  SecuritySettings,
} from '@svc/domain';

/** A stored profile with every setting at its default, created and last changed at `at`. */
export function profileRecord(
  id: string,
  orgId: string,
  at: Date,
  overrides: Partial<ProfileRecord> = {},
): ProfileRecord {
  return {
    id,
    orgId,
    name: id,
    version: 1,
    security: SecuritySettings.parse({}),
    parental: ParentalSettings.parse({}),
    settings: ProfileSettings.parse({}),
    rules: NO_RULES,
    lists: [],
    schedules: [],
    bedtime: null,
    scheduleAssignments: [],
    allowances: [],
    suspended: false,
    pausedUntil: null,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}
