import type {
  AllowanceCreate as AllowanceCreateSchema,
  DevicePatch as DevicePatchSchema,
  DevicePolicy as DevicePolicySchema,
  LinkedIpCreate as LinkedIpCreateSchema,
  ListReportCreate as ListReportCreateSchema,
  ProfileCreate as ProfileCreateSchema,
  ProfileList as ProfileListSchema,
  ProfilePatch as ProfilePatchSchema,
  ProfileRules as ProfileRulesSchema,
  ProfileSchedules as ProfileSchedulesSchema,
  Schedule as ScheduleSchema,
} from '@svc/domain';
import type { SchemaInput, SchemaOutput } from './schema-types.js';

/**
 * Body of POST /v1/profiles: every field optional; present fields replace the defaults, omitted sections and
 * fields take them (spec 4.2).
 */
export type ProfileCreateRequest = SchemaInput<typeof ProfileCreateSchema>;
/** Body of PATCH /v1/profiles/{id}: a JSON merge of name, security, parental and settings. */
export type ProfilePatchRequest = SchemaInput<typeof ProfilePatchSchema>;
/** Body of PUT /v1/profiles/{id}/rules: a missing list is empty; the answer is the normalised rules. */
export type ProfileRulesRequest = SchemaInput<typeof ProfileRulesSchema>;
/** One schedule of PUT /v1/profiles/{id}/schedules: a unique name and its weekly windows. */
export type ScheduleRequest = SchemaInput<typeof ScheduleSchema>;
/** Body of PUT /v1/profiles/{id}/schedules: the schedules, and the bedtime and assignments (absent: cleared). */
export type ProfileSchedulesRequest = SchemaInput<typeof ProfileSchedulesSchema>;
/** Body of PUT …/devices/{deviceId}/policy: what the device overrides; `{}` inherits everything. */
export type DevicePolicyRequest = SchemaInput<typeof DevicePolicySchema>;
/** Body of POST /v1/profiles/{id}/allowances: exactly one of `domain` and `service`, and 1 to 1440 minutes. */
export type AllowanceCreateRequest = SchemaInput<typeof AllowanceCreateSchema>;
/** One page of GET /v1/profiles: `{profiles, next_cursor}`. */
export type ProfileList = SchemaOutput<typeof ProfileListSchema>;

type LinkedIpCreateFields = SchemaInput<typeof LinkedIpCreateSchema>;
/**
 * Body of POST /v1/profiles/{id}/linked-ips: exactly one of `{ip}` (link that IPv4 address) or `{ddns: true}`
 * (an empty slot its DDNS update URL fills in). The server checks the same; the union says it at compile time.
 */
export type LinkedIpCreateRequest =
  | { ip: NonNullable<LinkedIpCreateFields['ip']>; ddns?: never }
  | { ddns: NonNullable<LinkedIpCreateFields['ddns']>; ip?: never };

/** Body of PATCH /v1/profiles/{id}/devices/{deviceId}: absent fields unchanged, null or '' clears. */
export type DevicePatchRequest = SchemaInput<typeof DevicePatchSchema>;
/** Body of POST /v1/profiles/{id}/list-reports. */
export type ListReportCreateRequest = SchemaInput<typeof ListReportCreateSchema>;
