import { type OperatorCode, type ProfileRules, QUERY_STATUSES, rulePatternParts } from '@svc/domain';
import { SeededRandom, WeightedSampler } from './seeded-random.js';
import {
  type DecidingProfile,
  type SimulatedDecision,
  simulatedDecisions,
  textHash,
} from './simulated-decisions.js';
import {
  SIMULATED_OPERATOR_BLOCKS,
  type SimulatedName,
  simulatedAnswers,
  simulatedNamePool,
} from './simulated-names.js';

// The traffic model of a simulation: which names a profile's devices ask, how the edge decides each, what it
// answers, and when in the day queries come. edge-simulation.ts draws queries from it.

/** Zipf exponent of name popularity. */
const NAME_EXPONENT = 1.05;
/** Offset of the simulated household's local time from UTC (Eastern), for the daily rhythm. */
const LOCAL_OFFSET_HOURS = -5;
/** Relative traffic by local hour of day: quiet at night, peaks in the evening. */
const RHYTHM = [
  0.32, 0.22, 0.17, 0.15, 0.16, 0.24, 0.45, 0.68, 0.78, 0.74, 0.7, 0.72, 0.8, 0.76, 0.72, 0.75, 0.84, 0.93, 1,
  1, 0.97, 0.88, 0.7, 0.5,
];
/** Addresses of the block page (block mode `block-page`). */
const BLOCK_PAGE_V4 = ['198.51.100.53'];
const BLOCK_PAGE_V6 = ['2001:db8:53::53'];
const NULL_V4 = ['0.0.0.0'];
const NULL_V6 = ['::'];
const NO_ANSWERS: readonly string[] = Object.freeze([]);
/** Block modes by their code in a traffic's per-name block modes. */
export const BLOCK_MODES = ['nxdomain', 'refused', 'null', 'block-page'] as const;
/** Codes of the fixed answer sets, first in every answer dictionary. */
export const ANSWERS_NONE = 0;
export const ANSWERS_NULL_V4 = 1;
export const ANSWERS_NULL_V6 = 2;
export const ANSWERS_PAGE_V4 = 3;
export const ANSWERS_PAGE_V6 = 4;
const FIXED_ANSWERS: readonly (readonly string[])[] = [
  NO_ANSWERS,
  NULL_V4,
  NULL_V6,
  BLOCK_PAGE_V4,
  BLOCK_PAGE_V6,
];

/** The edge's decision for one name of the pool. */
interface Decision extends SimulatedDecision {
  /** Index of the status in QUERY_STATUSES. */
  statusIndex: number;
}

/** A profile's names with the edge's decision for each, and their popularity. */
export interface ProfileTraffic {
  names: readonly SimulatedName[];
  decisions: readonly Decision[];
  sampler: WeightedSampler;
  /** Dictionaries of the batch columns, indexed by name (decisions: one more entry, undecided). */
  qnames: readonly string[];
  hiddenQnames: readonly string[];
  listIds: readonly (number | null)[];
  listNames: readonly string[];
  rules: readonly string[];
  /** The rules kept when domains are not logged: operator blocks' only. */
  operatorRules: readonly string[];
  operatorCodes: readonly (OperatorCode | '')[];
  decidedBys: readonly string[];
  /** Answer sets (the fixed ones first), and each name's codes into them. */
  answers: readonly (readonly string[])[];
  nameV4: Uint32Array;
  nameV6: Uint32Array;
  rewriteV4: Uint32Array;
  rewriteV6: Uint32Array;
  /** By name: the index of the decision's status in QUERY_STATUSES. */
  statusIndexes: Uint8Array;
  /** By name: how a block is answered, as an index of BLOCK_MODES. */
  blockModes: Uint8Array;
  /** By name: 1 when it does not exist (NXDOMAIN). */
  missing: Uint8Array;
  /** By name: 1 when an allowed answer is DNSSEC-validated (a signed zone that exists). */
  validated: Uint8Array;
}

/** Answer sets deduplicated by content, the fixed ones first. */
class AnswerDictionary {
  readonly sets: (readonly string[])[] = [...FIXED_ANSWERS];
  private readonly codes = new Map<string, number>(FIXED_ANSWERS.map((set, index) => [set.join(' '), index]));

  codeOf(set: readonly string[]): number {
    const key = set.join(' ');
    let code = this.codes.get(key);
    if (code === undefined) {
      code = this.sets.length;
      this.sets.push(set);
      this.codes.set(key, code);
    }
    return code;
  }
}

/** Most traffic models and hour samplers a {@link TrafficModels} keeps of each. */
const MODELS_KEPT = 16;

/**
 * The traffic models simulations share, held by whoever runs many (the simulator service, a benchmark) rather
 * than by this module, so that what is kept lives as long as its holder and no longer.
 *
 * Decided pools are kept by what decides them (rules, lists, suspension, block mode, operator blocks):
 * profiles filtering alike share one, so that simulating many profiles does not decide the same pool again for
 * each. Profiles bringing compiled lists are decided afresh.
 */
export class TrafficModels {
  private readonly traffics = new Map<string, ProfileTraffic>();
  private readonly hourSamplers = new Map<string, WeightedSampler>();

  /** The decided pool of a profile. */
  traffic(profile: DecidingProfile): ProfileTraffic {
    const key =
      profile.compiledLists === undefined
        ? JSON.stringify([
            profile.rules,
            profile.lists,
            profile.suspended,
            profile.settings.block_mode,
            profile.operatorBlocks ?? null,
            profile.policy ?? null,
            profile.decideAs ?? null,
          ])
        : null;
    const cached = key === null ? undefined : this.traffics.get(key);
    if (cached !== undefined) return cached;
    const traffic = profileTraffic(profile);
    if (key === null) return traffic;
    if (this.traffics.size >= MODELS_KEPT) this.traffics.clear();
    this.traffics.set(key, traffic);
    return traffic;
  }

  /** Draws an hour of the window (index from `firstHour`) by the daily rhythm. */
  hourSampler(days: number, firstHour: number): WeightedSampler {
    const startHour = (((firstHour + LOCAL_OFFSET_HOURS) % 24) + 24) % 24;
    const key = `${days} ${startHour}`;
    let sampler = this.hourSamplers.get(key);
    if (sampler === undefined) {
      sampler = new WeightedSampler(
        Array.from({ length: days * 24 + 1 }, (_unused, index) => RHYTHM[(startHour + index) % 24] as number),
      );
      if (this.hourSamplers.size >= MODELS_KEPT) this.hourSamplers.clear();
      this.hourSamplers.set(key, sampler);
    }
    return sampler;
  }
}

/** A profile's pool of names, each decided once by the decision function every edge shares. */
function profileTraffic(profile: DecidingProfile): ProfileTraffic {
  const names = profileNames(profile.rules);
  // Each distinct name of the pool is decided once, by the decision function every edge shares.
  const listed = names.filter((name) => name.kind === 'listed').map((name) => name.qname);
  const decisions = simulatedDecisions(
    profile,
    names.map((name) => name.qname),
    listed,
  ).map((decision): Decision => ({ ...decision, statusIndex: QUERY_STATUSES.indexOf(decision.status) }));
  const answers = new AnswerDictionary();
  const nameV4 = Uint32Array.from(names, (name) => answers.codeOf(name.v4));
  const nameV6 = Uint32Array.from(names, (name) => answers.codeOf(name.v6));
  const rewriteV4 = Uint32Array.from(decisions, (decision) => answers.codeOf(decision.rewriteV4));
  const rewriteV6 = Uint32Array.from(decisions, (decision) => answers.codeOf(decision.rewriteV6));
  return {
    names,
    decisions,
    sampler: WeightedSampler.zipf(names.length, NAME_EXPONENT),
    qnames: names.map((name) => name.qname),
    hiddenQnames: names.map(() => ''),
    listIds: [...decisions.map((decision) => decision.listId), null],
    listNames: [...decisions.map((decision) => decision.listName), ''],
    rules: [...decisions.map((decision) => decision.rule), ''],
    operatorRules: [...decisions.map((decision) => (decision.operatorCode === '' ? '' : decision.rule)), ''],
    operatorCodes: [...decisions.map((decision) => decision.operatorCode), ''],
    decidedBys: [...decisions.map((decision) => decision.decidedBy), ''],
    answers: answers.sets,
    nameV4,
    nameV6,
    rewriteV4,
    rewriteV6,
    statusIndexes: Uint8Array.from(decisions, (decision) => decision.statusIndex),
    blockModes: Uint8Array.from(decisions, (decision) =>
      Math.max(0, BLOCK_MODES.indexOf(decision.blockMode ?? 'nxdomain')),
    ),
    missing: Uint8Array.from(names, (name) => (name.kind === 'missing' ? 1 : 0)),
    validated: Uint8Array.from(names, (name) => (name.signed && name.kind !== 'missing' ? 1 : 0)),
  };
}

/**
 * The pool with the names of the profile's rules and the operator blocks spliced in at spread-out ranks,
 * so that rule blocks, rewrites and operator blocks all occur (operator blocks rarely). Their answers derive
 * from the name alone.
 */
function profileNames(rules: ProfileRules): SimulatedName[] {
  const names = [...simulatedNamePool()];
  const known = new Set(names.map((name) => name.qname));
  const targets = [
    ...rules.deny.map(ruleTarget),
    ...rules.allow.map(ruleTarget),
    ...rules.rewrites.map((rule) => ruleTarget(rule.pattern)),
  ].filter((qname) => !known.has(qname) && known.add(qname));
  const extra = (qname: string): SimulatedName => ({
    qname,
    kind: 'site',
    owner: 'other',
    signed: false,
    ...simulatedAnswers(new SeededRandom(textHash(qname))),
  });
  targets.forEach((qname, index) => {
    names.splice(Math.min(names.length, 6 + index * 23), 0, extra(qname));
  });
  SIMULATED_OPERATOR_BLOCKS.forEach((block, index) => {
    names.splice(Math.min(names.length, 180 + index * 260), 0, extra(block.qname));
  });
  return names;
}

/** Names queried because a rule targets them: the rule's own name, or a subdomain for `*.` rules. */
function ruleTarget(pattern: string): string {
  const { form, name } = rulePatternParts(pattern);
  return form === 'subdomains' ? `www.${name}` : name;
}
