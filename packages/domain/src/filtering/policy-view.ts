import type { DocumentAllowance } from '../policies/allowance.schemas.js';
import type { DocumentDevicePolicy } from '../policies/device-policy.schemas.js';
import { type ScheduleAssignment, scheduledTargetKey } from '../policies/schedule-assignment.schemas.js';
import {
  allowanceDecision,
  allowRuleDecision,
  bedtimeDecision,
  denyRuleDecision,
  listDecision,
} from './filtering-decisions.js';
import type { FilteringProfile, FilterList } from './filtering-types.js';
import { NameTable } from './name-table.js';
import { type KeyedPattern, PatternIndex, patternKey } from './pattern-index.js';
import type { QueryDecision } from './query-decision.js';
import type { ScheduleStates } from './schedule-states.js';

/** What a view reads at decision time: the query's time and the schedules' states. */
export interface DecisionClock {
  at: number;
  readonly schedules: ScheduleStates;
}

/** No gate: the item blocks at every instant. Otherwise `slot * 2 + (only_during ? 1 : 0)`. */
const UNGATED = -1;

const KIND_ORDER = { list: 0, parental: 1, security: 2 } as const;

/** Whether a gated item blocks at the clock's time. */
function gateOpen(gate: number, clock: DecisionClock): boolean {
  if (gate === UNGATED) return true;
  return clock.schedules.isActive(gate >> 1, clock.at) === ((gate & 1) === 1);
}

/** The key an assignment names a list by: `list:<id>` for an enabled list, else its reference. */
function listTargetKey(list: FilterList): string | undefined {
  return list.kind === 'list' ? `list:${list.listId}` : list.ref;
}

/**
 * The lists a device applies: the profile's (never its device-only ones), with its parental lists replaced when
 * the device sets `parental` (`off`: none; its own services and categories: those, found by reference).
 */
function listsFor(lists: readonly FilterList[], device: DocumentDevicePolicy | undefined): FilterList[] {
  const parental = device?.parental;
  if (parental === undefined) return lists.filter((list) => list.deviceOnly !== true);
  const own =
    parental === 'off'
      ? new Set<string>()
      : new Set([
          ...parental.services.map((id) => `service:${id}`),
          ...parental.categories.map((id) => `category:${id}`),
        ]);
  return lists.filter((list) =>
    list.kind === 'parental' ? list.ref !== undefined && own.has(list.ref) : list.deviceOnly !== true,
  );
}

/** When each list's service allowance ends (minus infinity: none), by the list's `service:<id>` reference. */
function serviceAllowanceEnds(lists: readonly FilterList[], allowances: readonly DocumentAllowance[]) {
  const ends = new Float64Array(lists.length).fill(Number.NEGATIVE_INFINITY);
  for (const allowance of allowances) {
    if (allowance.service === null) continue;
    const until = Date.parse(allowance.until);
    if (Number.isNaN(until)) continue;
    const ref = `service:${allowance.service}`;
    lists.forEach((list, index) => {
      if (list.ref === ref) ends[index] = Math.max(ends[index] as number, until);
    });
  }
  return ends;
}

function pauseEndOf(pausedUntil: string | null | undefined): number {
  if (pausedUntil === null || pausedUntil === undefined) return Number.NEGATIVE_INFINITY;
  const at = Date.parse(pausedUntil);
  // An unreadable time is no pause: the edge keeps filtering rather than letting everything through.
  return Number.isNaN(at) ? Number.NEGATIVE_INFINITY : at;
}

/** What one view is built from: the profile, and the device it is for (none for the profile's own view). */
export interface ViewInputs {
  profile: FilteringProfile;
  lists: readonly FilterList[];
  /** Operator block and rewrite patterns: the view's name table holds them with its own. */
  sharedPatterns: readonly (string | KeyedPattern)[];
  clock: DecisionClock;
  device?: { id: string; policy: DocumentDevicePolicy };
}

/**
 * The profile's policy as it applies to the profile itself or to one device (its rules added, its parental
 * lists, bedtime, assignments and pause): indexes, gates and decisions built once, so that deciding allocates
 * nothing. Items only the device has decide with `device:<id>`; items a schedule gates with `schedule:<name>`.
 */
export class PolicyView {
  readonly pausedUntil: number;
  readonly patternNames: NameTable;
  readonly allow: PatternIndex;
  readonly allowDecisions: readonly QueryDecision[];
  readonly allowances: PatternIndex;
  readonly allowanceEnds: Float64Array;
  readonly allowanceDecisions: readonly QueryDecision[];
  /** The bedtime's schedule slot, or -1. */
  readonly bedtime: number;
  readonly bedtimeDecision: QueryDecision | null;
  readonly deny: PatternIndex;
  readonly denyDecisions: readonly QueryDecision[];
  readonly denyGates: Int32Array;
  readonly lists: readonly FilterList[];
  readonly listDecisions: readonly QueryDecision[];
  readonly listGates: Int32Array;
  /** Per list: the end of a timed allowance of its service (the list does not block before it). */
  readonly listAllowedUntil: Float64Array;
  readonly acceptAllowance = (index: number): boolean =>
    (this.allowanceEnds[index] as number) > this.clock.at;
  readonly acceptDeny = (index: number): boolean => gateOpen(this.denyGates[index] as number, this.clock);
  private readonly clock: DecisionClock;

  constructor(inputs: ViewInputs) {
    const { profile, clock, device } = inputs;
    this.clock = clock;
    const policy = device?.policy;
    const owner = device === undefined ? '' : `device:${device.id}`;
    const blockMode = profile.settings.block_mode;
    const assignments = policy?.assignments ?? profile.schedule_assignments ?? [];
    const gateOf = gates(assignments, clock.schedules);
    this.pausedUntil = Math.max(pauseEndOf(profile.paused_until), pauseEndOf(policy?.paused_until));

    const profileRules = profile.rules;
    const allow = [...profileRules.allow, ...(policy?.rules?.allow ?? [])];
    this.allow = new PatternIndex(allow);
    this.allowDecisions = allow.map((pattern, index) =>
      allowRuleDecision(pattern, index < profileRules.allow.length ? '' : owner),
    );

    const allowances = (profile.allowances ?? []).filter((entry) => entry.domain !== null);
    const domains = allowances.map((entry) => entry.domain as string);
    this.allowances = new PatternIndex(domains);
    this.allowanceEnds = Float64Array.from(allowances, (entry) => {
      const until = Date.parse(entry.until);
      return Number.isNaN(until) ? Number.NEGATIVE_INFINITY : until;
    });
    this.allowanceDecisions = domains.map(allowanceDecision);

    const bedtime = policy?.bedtime === undefined ? (profile.bedtime ?? null) : policy.bedtime;
    this.bedtime = bedtime === null ? -1 : clock.schedules.slotOf(bedtime);
    this.bedtimeDecision = bedtime === null ? null : bedtimeDecision(bedtime, blockMode);

    const deny = [...profileRules.deny, ...(policy?.rules?.deny ?? [])];
    this.deny = new PatternIndex(deny);
    this.denyGates = Int32Array.from(deny, (pattern) => gateOf(`deny:${pattern}`).gate);
    this.denyDecisions = deny.map((pattern, index) => {
      const scheduled = gateOf(`deny:${pattern}`).decidedBy;
      const decidedBy = scheduled || (index < profileRules.deny.length ? '' : owner);
      return denyRuleDecision(pattern, blockMode, decidedBy);
    });

    const lists = listsFor(inputs.lists, policy).sort(
      (a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.listId - b.listId,
    );
    this.lists = lists;
    const listGates = lists.map((list) => gateOf(listTargetKey(list)));
    this.listGates = Int32Array.from(listGates, (gate) => gate.gate);
    this.listDecisions = lists.map((list, index) => {
      const decidedBy = (listGates[index] as Gate).decidedBy || (list.deviceOnly === true ? owner : '');
      return listDecision(list, blockMode, decidedBy);
    });
    this.listAllowedUntil = serviceAllowanceEnds(lists, profile.allowances ?? []);

    this.patternNames = patternNameTable([...inputs.sharedPatterns, ...allow, ...domains, ...deny]);
  }

  /** Whether the list at `index` blocks now: its schedule gate is open and no allowance of its service holds. */
  listBlocksNow(index: number): boolean {
    return (
      this.clock.at >= (this.listAllowedUntil[index] as number) &&
      gateOpen(this.listGates[index] as number, this.clock)
    );
  }
}

interface Gate {
  gate: number;
  decidedBy: string;
}

const NO_GATE: Gate = { gate: UNGATED, decidedBy: '' };

/** Each assignment's gate by its target's key (one assignment per item; the first wins otherwise). */
function gates(assignments: readonly ScheduleAssignment[], schedules: ScheduleStates) {
  const byTarget = new Map<string, Gate>();
  for (const assignment of assignments) {
    const key = scheduledTargetKey(assignment.target);
    if (byTarget.has(key)) continue;
    const slot = schedules.slotOf(assignment.schedule);
    byTarget.set(key, {
      gate: slot * 2 + (assignment.mode === 'only_during' ? 1 : 0),
      decidedBy: `schedule:${assignment.schedule}`,
    });
  }
  return (key: string | undefined): Gate => (key === undefined ? NO_GATE : (byTarget.get(key) ?? NO_GATE));
}

/** A table of the names of every pattern given. */
function patternNameTable(patterns: readonly (string | KeyedPattern)[]): NameTable {
  const table = new NameTable(patterns.length);
  for (const pattern of patterns) {
    const key = patternKey(pattern);
    table.add(key.a, key.b, 1);
  }
  return table;
}
