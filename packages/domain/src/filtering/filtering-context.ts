import type { DocumentDevicePolicy } from '../policies/device-policy.schemas.js';
import type { OperatorCode } from '../query-log/query-log-row.js';
import type { EntryForm } from './entry-forms.js';
import { decision, rewriteTarget, SOURCE_DECISION } from './filtering-decisions.js';
import type { FilteringProfile, FilterList } from './filtering-types.js';
import type { SuffixKeys } from './name-key.js';
import { type KeyedPattern, PatternIndex } from './pattern-index.js';
import { PolicyView } from './policy-view.js';
import type { QueryDecision } from './query-decision.js';
import { ScheduleStates } from './schedule-states.js';
import { SourcePrefixes } from './source-prefixes.js';

export { FORWARD, PAUSED, SERVICE_ALLOWED } from './filtering-decisions.js';

export type { FilteringProfile, FilterList, FilterListKind, ListLookup } from './filtering-types.js';

/**
 * An entry of the operator blocks file (operator-files.ts): its pattern, or (as nodes get `csam` entries,
 * node-operator-files.ts) the key of its name and its form.
 */
export interface OperatorBlockEntry {
  pattern?: string | undefined;
  key?: string | undefined;
  form?: EntryForm | undefined;
  reason_code: OperatorCode;
  public_ref: string;
  pops: readonly string[];
  jurisdictions: readonly string[];
  expires_at: string | null;
}

/** An entry of the operator sources file (operator-files.ts). */
export interface SourceBlockEntry {
  cidr: string;
  pops: readonly string[];
  jurisdictions: readonly string[];
  expires_at: string | null;
}

/**
 * Where the deciding edge is, for the scope of operator entries (spec 2.8, 2.9): its PoP id (`node` for a
 * self-hosted node, as query logs name it) and the jurisdictions it is in.
 */
export interface EdgeLocation {
  pop: string;
  jurisdictions: readonly string[];
}

/** A self-hosted node: PoP `node`, no jurisdiction known. */
export const SELF_HOSTED_LOCATION: EdgeLocation = Object.freeze({ pop: 'node', jurisdictions: [] });

/** Everything a decision is made from. */
export interface FilteringInputs {
  profile: FilteringProfile;
  /** The compiled lists the profile applies (any order). */
  lists?: readonly FilterList[];
  operatorBlocks?: readonly OperatorBlockEntry[];
  sourceBlocks?: readonly SourceBlockEntry[];
  /** Default: {@link SELF_HOSTED_LOCATION}. */
  location?: EdgeLocation;
}

/**
 * Whether an operator entry applies at `location`: an entry without PoPs applies at every PoP and node, one
 * with PoPs only there (a self-hosted node is the PoP `node`); likewise for jurisdictions.
 */
export function operatorEntryInScope(
  entry: { pops: readonly string[]; jurisdictions: readonly string[] },
  location: EdgeLocation,
): boolean {
  const pop = entry.pops.length === 0 || entry.pops.includes(location.pop);
  const jurisdiction =
    entry.jurisdictions.length === 0 ||
    entry.jurisdictions.some((code) => location.jurisdictions.includes(code));
  return pop && jurisdiction;
}

/** What an operator block matches by: its pattern, or its name key and form; undefined when it has neither. */
function patternOf(entry: OperatorBlockEntry): string | KeyedPattern | undefined {
  if (entry.pattern !== undefined && entry.pattern !== '') return entry.pattern;
  if (entry.key === undefined || !/^[0-9a-f]{16}$/.test(entry.key) || entry.form === undefined)
    return undefined;
  return {
    a: Number.parseInt(entry.key.slice(0, 8), 16) | 0,
    b: Number.parseInt(entry.key.slice(8, 16), 16) | 0,
    form: entry.form,
  };
}

function expiryOf(expiresAt: string | null): number {
  if (expiresAt === null) return Number.POSITIVE_INFINITY;
  const at = Date.parse(expiresAt);
  return Number.isNaN(at) ? Number.POSITIVE_INFINITY : at;
}

/** Operator blocks in scope here, indexed, with their expiry and decisions. */
function operatorPart(entries: readonly OperatorBlockEntry[], location: EdgeLocation) {
  const blocks = entries.filter(
    (entry) => operatorEntryInScope(entry, location) && patternOf(entry) !== undefined,
  );
  const patterns = blocks.map((entry) => patternOf(entry) as string | KeyedPattern);
  return {
    patterns,
    operator: new PatternIndex(patterns),
    operatorExpiry: Float64Array.from(blocks, (entry) => expiryOf(entry.expires_at)),
    operatorDecisions: blocks.map((entry) =>
      decision({
        action: 'block',
        reason: 'operator_block',
        status: 'blocked',
        rule: entry.pattern ?? '',
        operatorCode: entry.reason_code,
        ede: 15,
        edeText: entry.public_ref,
        blockMode: 'nxdomain',
      }),
    ),
  };
}

/** One index entry per distinct rewrite pattern; its decision answers with every rewrite of that pattern. */
function rewritePart(rewrites: FilteringProfile['rules']['rewrites']) {
  const patterns = [...new Set(rewrites.map((rule) => rule.pattern))];
  return {
    patterns,
    rewrite: new PatternIndex(patterns),
    rewriteDecisions: patterns.map((pattern) =>
      decision({
        action: 'rewrite',
        reason: 'rewrite',
        status: 'rewritten',
        rule: pattern,
        rewrites: Object.freeze(
          rewrites.filter((rule) => rule.pattern === pattern).map((rule) => rewriteTarget(rule.answer)),
        ),
      }),
    ),
  };
}

/**
 * Everything {@link decideQuery} needs, prepared once per profile document, list set and operator file
 * version: patterns indexed by key, operator entries reduced to those in scope here, and every possible
 * decision built ahead, so that deciding a query allocates nothing. The profile's own policy is one
 * {@link PolicyView}; each device of the document gets its own on its first query, kept until the context is
 * replaced (a document with 1,000 devices costs nothing up front for them).
 */
export class FilteringContext {
  /** Reused by each decision (decisions are synchronous). */
  readonly keys: SuffixKeys;
  readonly filtering: boolean;
  readonly operator: PatternIndex;
  readonly operatorDecisions: readonly QueryDecision[];
  readonly operatorExpiry: Float64Array;
  readonly sources: SourcePrefixes;
  readonly sourceDecision: QueryDecision = SOURCE_DECISION;
  readonly sourceExpiry: Float64Array;
  readonly rewrite: PatternIndex;
  readonly rewriteDecisions: readonly QueryDecision[];
  /** Whether each schedule is active, cached until its next change. */
  readonly schedules: ScheduleStates;
  /** The profile's own policy (queries without a device, or of a device the document does not override). */
  readonly profileView: PolicyView;
  /** The time of the query being decided (ms), for expiries, pauses, allowances and schedules. */
  at = Number.NEGATIVE_INFINITY;
  readonly acceptOperator = (index: number): boolean => (this.operatorExpiry[index] as number) > this.at;
  readonly acceptSource = (index: number): boolean => (this.sourceExpiry[index] as number) > this.at;
  private readonly profile: FilteringProfile;
  private readonly allLists: readonly FilterList[];
  private readonly sharedPatterns: readonly (string | KeyedPattern)[];
  private readonly deviceViews = new Map<string, PolicyView>();
  private readonly devices: Readonly<Record<string, DocumentDevicePolicy>>;
  private readonly hasDevices: boolean;

  constructor(inputs: FilteringInputs, keys: SuffixKeys) {
    this.keys = keys;
    const location = inputs.location ?? SELF_HOSTED_LOCATION;
    const { profile } = inputs;
    this.profile = profile;
    this.filtering = profile.filtering;
    this.devices = profile.devices ?? {};
    this.hasDevices = Object.keys(this.devices).length > 0;
    this.schedules = new ScheduleStates(profile.schedules ?? [], profile.settings.time_zone);

    const operator = operatorPart(inputs.operatorBlocks ?? [], location);
    this.operator = operator.operator;
    this.operatorExpiry = operator.operatorExpiry;
    this.operatorDecisions = operator.operatorDecisions;

    const sources = (inputs.sourceBlocks ?? []).filter((entry) => operatorEntryInScope(entry, location));
    this.sources = new SourcePrefixes(sources.map((entry) => entry.cidr));
    this.sourceExpiry = Float64Array.from(sources, (entry) => expiryOf(entry.expires_at));

    const rewrite = rewritePart(profile.rules.rewrites);
    this.rewrite = rewrite.rewrite;
    this.rewriteDecisions = rewrite.rewriteDecisions;
    this.allLists = inputs.lists ?? [];
    this.sharedPatterns = [...operator.patterns, ...rewrite.patterns];
    this.profileView = new PolicyView({
      profile,
      lists: this.allLists,
      sharedPatterns: this.sharedPatterns,
      clock: this,
    });
  }

  /**
   * The policy a query of `device` is decided by: the device's view, built on its first query and kept, or the
   * profile's for no device or one the document does not override (unknown ids are not kept: a client could
   * name any number of them).
   */
  viewFor(device: string | undefined): PolicyView {
    if (device === undefined || !this.hasDevices) return this.profileView;
    const kept = this.deviceViews.get(device);
    if (kept !== undefined) return kept;
    if (!Object.hasOwn(this.devices, device)) return this.profileView;
    const view = new PolicyView({
      profile: this.profile,
      lists: this.allLists,
      sharedPatterns: this.sharedPatterns,
      clock: this,
      device: { id: device, policy: this.devices[device] as DocumentDevicePolicy },
    });
    this.deviceViews.set(device, view);
    return view;
  }

  /** Device views built so far (views are built on a device's first query). */
  get deviceViewCount(): number {
    return this.deviceViews.size;
  }
}
