import type { OperatorCode } from '../query-log/query-log-row.js';
import type { EntryForm } from './entry-forms.js';
import type { SuffixKeys } from './name-key.js';
import { NameTable } from './name-table.js';
import { type KeyedPattern, PatternIndex, patternKey } from './pattern-index.js';
import type { BlockMode, QueryDecision, RewriteTarget } from './query-decision.js';
import { SourcePrefixes } from './source-prefixes.js';

/** What of a profile document decides queries (the node profile document has these fields). */
export interface FilteringProfile {
  /** False while the profile is suspended: it then resolves without any of its own filtering. */
  filtering: boolean;
  /**
   * End (exclusive, RFC 3339) of the owner's timed pause: a query before it is decided without the profile's
   * own blocking. Null or absent: not paused.
   */
  paused_until?: string | null | undefined;
  settings: { block_mode: BlockMode };
  rules: {
    deny: readonly string[];
    allow: readonly string[];
    rewrites: readonly { pattern: string; answer: string }[];
  };
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
}

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

const KIND_ORDER: Record<FilterListKind, number> = { list: 0, parental: 1, security: 2 };

function decision(
  fields: Partial<QueryDecision> & Pick<QueryDecision, 'action' | 'reason' | 'status'>,
): QueryDecision {
  return Object.freeze({
    listId: null,
    rule: '',
    operatorCode: '',
    ede: 0,
    edeText: '',
    blockMode: null,
    rewrites: [],
    decidedBy: '',
    ...fields,
  });
}

/** The decision for a query nothing decided. */
export const FORWARD: QueryDecision = decision({ action: 'forward', reason: 'none', status: 'allowed' });

/** The decision for a query the profile's own blocking would have decided, while its owner paused it. */
export const PAUSED: QueryDecision = decision({
  action: 'forward',
  reason: 'paused',
  status: 'allowed',
  decidedBy: 'paused',
});

function rewriteTarget(answer: string): RewriteTarget {
  if (answer.includes(':')) return { type: 'AAAA', data: answer };
  if (/^[0-9.]+$/.test(answer)) return { type: 'A', data: answer };
  return { type: 'CNAME', data: answer };
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

/**
 * When a pause ends (ms); minus infinity when there is none. An unreadable time is no pause: a document the
 * edge cannot read the pause of keeps filtering rather than letting everything through.
 */
function pauseEndOf(pausedUntil: string | null | undefined): number {
  if (pausedUntil === null || pausedUntil === undefined) return Number.NEGATIVE_INFINITY;
  const at = Date.parse(pausedUntil);
  return Number.isNaN(at) ? Number.NEGATIVE_INFINITY : at;
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

const SOURCE_DECISION = decision({
  action: 'block',
  reason: 'source_block',
  status: 'blocked',
  operatorCode: 'abuse',
  ede: 15,
  edeText: 'abusive source',
  blockMode: 'refused',
});

/** The profile's allow and deny rules, indexed, with their decisions. */
function rulesPart(rules: FilteringProfile['rules'], blockMode: BlockMode) {
  return {
    allow: new PatternIndex(rules.allow),
    allowDecisions: rules.allow.map((pattern) =>
      decision({ action: 'allow', reason: 'allow_rule', status: 'allowed', rule: pattern }),
    ),
    deny: new PatternIndex(rules.deny),
    denyDecisions: rules.deny.map((pattern) =>
      decision({
        action: 'block',
        reason: 'deny_rule',
        status: 'blocked',
        rule: pattern,
        ede: 17,
        edeText: pattern,
        blockMode,
      }),
    ),
  };
}

/** The profile's lists in the order they decide (kind, then id), with their decisions. */
function listsPart(lists: readonly FilterList[], blockMode: BlockMode) {
  const sorted = [...lists].sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.listId - b.listId);
  return {
    lists: sorted,
    listDecisions: sorted.map((list) =>
      decision({
        action: 'block',
        reason: list.kind,
        status: 'blocked',
        listId: list.listId,
        ede: 17,
        edeText: list.name,
        blockMode,
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

/** A table of the names of every pattern given. */
function patternNameTable(patterns: readonly (string | KeyedPattern)[]): NameTable {
  const table = new NameTable(patterns.length);
  for (const pattern of patterns) {
    const key = patternKey(pattern);
    table.add(key.a, key.b, 1);
  }
  return table;
}

/**
 * Everything {@link decideQuery} needs, prepared once per profile document, list set and operator file
 * version: patterns indexed by key, operator entries reduced to those in scope here, and every possible
 * decision built ahead, so that deciding a query allocates nothing.
 */
export class FilteringContext {
  /** Reused by each decision (decisions are synchronous). */
  readonly keys: SuffixKeys;
  readonly filtering: boolean;
  /** End of the owner's pause (ms, exclusive); minus infinity when not paused. */
  readonly pausedUntil: number;
  readonly operator: PatternIndex;
  readonly operatorDecisions: readonly QueryDecision[];
  readonly operatorExpiry: Float64Array;
  readonly sources: SourcePrefixes;
  readonly sourceDecision: QueryDecision = SOURCE_DECISION;
  readonly sourceExpiry: Float64Array;
  readonly allow: PatternIndex;
  readonly allowDecisions: readonly QueryDecision[];
  readonly deny: PatternIndex;
  readonly denyDecisions: readonly QueryDecision[];
  readonly lists: readonly FilterList[];
  readonly listDecisions: readonly QueryDecision[];
  readonly rewrite: PatternIndex;
  readonly rewriteDecisions: readonly QueryDecision[];
  /**
   * The names of every operator block, allow, deny and rewrite pattern together: a name none of whose
   * suffixes is here skips those four indexes (most names), one probe per label instead of four.
   */
  readonly patternNames: NameTable;
  /** The time of the query being decided (ms), for the expiry of operator entries and of the pause. */
  at = Number.NEGATIVE_INFINITY;
  readonly acceptOperator = (index: number): boolean => (this.operatorExpiry[index] as number) > this.at;
  readonly acceptSource = (index: number): boolean => (this.sourceExpiry[index] as number) > this.at;

  constructor(inputs: FilteringInputs, keys: SuffixKeys) {
    this.keys = keys;
    const location = inputs.location ?? SELF_HOSTED_LOCATION;
    const { profile } = inputs;
    const blockMode = profile.settings.block_mode;
    this.filtering = profile.filtering;
    this.pausedUntil = pauseEndOf(profile.paused_until);

    const operator = operatorPart(inputs.operatorBlocks ?? [], location);
    this.operator = operator.operator;
    this.operatorExpiry = operator.operatorExpiry;
    this.operatorDecisions = operator.operatorDecisions;

    const sources = (inputs.sourceBlocks ?? []).filter((entry) => operatorEntryInScope(entry, location));
    this.sources = new SourcePrefixes(sources.map((entry) => entry.cidr));
    this.sourceExpiry = Float64Array.from(sources, (entry) => expiryOf(entry.expires_at));

    const rules = rulesPart(profile.rules, blockMode);
    this.allow = rules.allow;
    this.allowDecisions = rules.allowDecisions;
    this.deny = rules.deny;
    this.denyDecisions = rules.denyDecisions;

    const lists = listsPart(inputs.lists ?? [], blockMode);
    this.lists = lists.lists;
    this.listDecisions = lists.listDecisions;

    const rewrite = rewritePart(profile.rules.rewrites);
    this.rewrite = rewrite.rewrite;
    this.rewriteDecisions = rewrite.rewriteDecisions;
    this.patternNames = patternNameTable([
      ...operator.patterns,
      ...profile.rules.allow,
      ...profile.rules.deny,
      ...rewrite.patterns,
    ]);
  }
}
