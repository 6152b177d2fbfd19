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
    ...fields,
  });
}

/** The decision for a query nothing decided. */
export const FORWARD: QueryDecision = decision({ action: 'forward', reason: 'none', status: 'allowed' });

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
 * Everything {@link decideQuery} needs, prepared once per profile document, list set and operator file
 * version: patterns indexed by key, operator entries reduced to those in scope here, and every possible
 * decision built ahead, so that deciding a query allocates nothing.
 */
export class FilteringContext {
  /** Reused by each decision (decisions are synchronous). */
  readonly keys: SuffixKeys;
  readonly filtering: boolean;
  readonly operator: PatternIndex;
  readonly operatorDecisions: readonly QueryDecision[];
  readonly operatorExpiry: Float64Array;
  readonly sources: SourcePrefixes;
  readonly sourceDecision: QueryDecision;
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
  /** The time of the query being decided (ms), for the expiry of operator entries. */
  at = Number.NEGATIVE_INFINITY;
  readonly acceptOperator = (index: number): boolean => (this.operatorExpiry[index] as number) > this.at;
  readonly acceptSource = (index: number): boolean => (this.sourceExpiry[index] as number) > this.at;

  constructor(inputs: FilteringInputs, keys: SuffixKeys) {
    this.keys = keys;
    const location = inputs.location ?? SELF_HOSTED_LOCATION;
    const { profile } = inputs;
    const blockMode = profile.settings.block_mode;
    this.filtering = profile.filtering;

    const blocks = (inputs.operatorBlocks ?? []).filter(
      (entry) => operatorEntryInScope(entry, location) && patternOf(entry) !== undefined,
    );
    this.operator = new PatternIndex(blocks.map((entry) => patternOf(entry) as string | KeyedPattern));
    this.operatorExpiry = Float64Array.from(blocks, (entry) => expiryOf(entry.expires_at));
    this.operatorDecisions = blocks.map((entry) =>
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
    );

    const sources = (inputs.sourceBlocks ?? []).filter((entry) => operatorEntryInScope(entry, location));
    this.sources = new SourcePrefixes(sources.map((entry) => entry.cidr));
    this.sourceExpiry = Float64Array.from(sources, (entry) => expiryOf(entry.expires_at));
    this.sourceDecision = decision({
      action: 'block',
      reason: 'source_block',
      status: 'blocked',
      operatorCode: 'abuse',
      ede: 15,
      edeText: 'abusive source',
      blockMode: 'refused',
    });

    const { deny, allow, rewrites } = profile.rules;
    this.allow = new PatternIndex(allow);
    this.allowDecisions = allow.map((pattern) =>
      decision({ action: 'allow', reason: 'allow_rule', status: 'allowed', rule: pattern }),
    );
    this.deny = new PatternIndex(deny);
    this.denyDecisions = deny.map((pattern) =>
      decision({
        action: 'block',
        reason: 'deny_rule',
        status: 'blocked',
        rule: pattern,
        ede: 17,
        edeText: pattern,
        blockMode,
      }),
    );

    this.lists = [...(inputs.lists ?? [])].sort(
      (a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.listId - b.listId,
    );
    this.listDecisions = this.lists.map((list) =>
      decision({
        action: 'block',
        reason: list.kind,
        status: 'blocked',
        listId: list.listId,
        ede: 17,
        edeText: list.name,
        blockMode,
      }),
    );

    // One index entry per distinct pattern; its decision answers with every rewrite of that pattern.
    const patterns = [...new Set(rewrites.map((rule) => rule.pattern))];
    const everyPattern = [
      ...blocks.map((entry) => patternOf(entry) as string | KeyedPattern),
      ...allow,
      ...deny,
      ...patterns,
    ];
    this.patternNames = new NameTable(everyPattern.length);
    for (const pattern of everyPattern) {
      const key = patternKey(pattern);
      this.patternNames.add(key.a, key.b, 1);
    }
    this.rewrite = new PatternIndex(patterns);
    this.rewriteDecisions = patterns.map((pattern) =>
      decision({
        action: 'rewrite',
        reason: 'rewrite',
        status: 'rewritten',
        rule: pattern,
        rewrites: Object.freeze(
          rewrites.filter((rule) => rule.pattern === pattern).map((rule) => rewriteTarget(rule.answer)),
        ),
      }),
    );
  }
}
