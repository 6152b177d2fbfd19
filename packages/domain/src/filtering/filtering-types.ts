import type { DocumentAllowance } from '../policies/allowance.schemas.js';
import type { DocumentDevicePolicy } from '../policies/device-policy.schemas.js';
import type { ScheduleAssignment } from '../policies/schedule-assignment.schemas.js';
import type { Schedule } from '../schedules/schedule.schemas.js';
import type { SuffixKeys } from './name-key.js';
import type { BlockMode } from './query-decision.js';

/** What of a profile document decides queries (the node profile document has these fields). */
export interface FilteringProfile {
  /** False while the profile is suspended: it then resolves without any of its own filtering. */
  filtering: boolean;
  /**
   * End (exclusive, RFC 3339) of the owner's timed pause: a query before it is decided without the profile's
   * own blocking. Null or absent: not paused.
   */
  paused_until?: string | null | undefined;
  /** `time_zone`: the IANA zone schedules are read in (default UTC). */
  settings: { block_mode: BlockMode; time_zone?: string | undefined };
  rules: {
    deny: readonly string[];
    allow: readonly string[];
    rewrites: readonly { pattern: string; answer: string }[];
  };
  /** Issue 38 (docs/adr/0043): the profile's schedules, bedtime, assignments, allowances and devices. */
  schedules?: readonly Schedule[] | undefined;
  bedtime?: string | null | undefined;
  schedule_assignments?: readonly ScheduleAssignment[] | undefined;
  allowances?: readonly DocumentAllowance[] | undefined;
  devices?: Readonly<Record<string, DocumentDevicePolicy>> | undefined;
}

/** A compiled list held for lookups (a {@link DomainSet}). */
export interface ListLookup {
  blocks(keys: SuffixKeys): boolean;
}

/** Why a list applies to a profile: enabled by id, a parental service or category, or a security toggle. */
export type FilterListKind = 'list' | 'parental' | 'security';

/** One compiled list a profile applies, with what the log and the EDE text name it by. */
export interface FilterList {
  listId: number;
  kind: FilterListKind;
  name: string;
  set: ListLookup;
  /**
   * What selected the list, for schedule assignments, service allowances and device parental overrides:
   * `list:<id>`, `service:<id>`, `category:<id>`, `security:<toggle>`. Lists of older documents have none:
   * no assignment or allowance reaches them, and a device's own parental selection leaves them out.
   */
  ref?: string | undefined;
  /** Selected only because a device's parental override chooses it: the profile itself does not apply it. */
  deviceOnly?: boolean | undefined;
}
