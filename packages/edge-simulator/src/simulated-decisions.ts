import {
  artifactLine,
  type BlockMode,
  DomainSet,
  decideQuery,
  type FilteringProfile,
  type FilterList,
  LIST_ARTIFACT_HEADER,
  type LoggedDecision,
  loggedDecision,
  type OperatorBlockEntry,
  type ProfileRules,
  type ProfileSettings,
  prepareFiltering,
  type QueryStatus,
} from '@svc/domain';
import { SIMULATED_OPERATOR_BLOCKS } from './simulated-names.js';

/** What of a profile the simulated edge decides with. */
export interface DecidingProfile {
  settings: Pick<ProfileSettings, 'block_mode'>;
  rules: ProfileRules;
  /** The enabled blocklists with their catalogue names. */
  lists: readonly { id: number; name: string }[];
  suspended: boolean;
  /**
   * The compiled lists of the enabled lists, when the caller has them (what nodes download). Without them,
   * each enabled list holds the pool names the caller lists as `listed`, spread over the enabled lists.
   */
  compiledLists?: readonly FilterList[];
  /** The operator blocks in force (default: {@link SIMULATED_OPERATOR_BLOCK_ENTRIES}). */
  operatorBlocks?: readonly OperatorBlockEntry[];
  /**
   * Issue 38's policy (the zone schedules are read in, schedules, bedtime, assignments, allowances, devices and
   * the owner's pause), as the profile document carries it; none by default.
   */
  policy?: SimulatedPolicy;
  /**
   * Decide as this device and at this instant (`svc simulate --device --at`): without them, as the profile's
   * policy with no time, so no schedule is active and no pause or allowance ends (docs/adr/0043).
   */
  decideAs?: { device?: string; at?: number };
}

/** The fields of issue 38's policy the simulated edge decides with. */
type SimulatedPolicy = Pick<
  FilteringProfile,
  'paused_until' | 'schedules' | 'bedtime' | 'schedule_assignments' | 'allowances' | 'devices'
> & { time_zone?: string | undefined };

/** The edge's decision for one name, as the simulation records it (the decision function's, see below). */
export interface SimulatedDecision extends LoggedDecision {
  status: QueryStatus;
  /** How a block is answered (operator blocks NXDOMAIN whatever the profile); null unless blocked. */
  blockMode: BlockMode | null;
  /** The Extended DNS Error a client would get (15, 17, or 0). */
  ede: number;
  edeText: string;
  /** Rewrite answers by family (empty when the rewrite answers the other family or with a CNAME). */
  rewriteV4: readonly string[];
  rewriteV6: readonly string[];
}

/** The simulation's own operator blocks as operator file entries (unscoped, never expiring). */
const SIMULATED_OPERATOR_BLOCK_ENTRIES: readonly OperatorBlockEntry[] = SIMULATED_OPERATOR_BLOCKS.map(
  (block) => ({
    pattern: block.qname,
    reason_code: block.code,
    public_ref: block.text,
    pops: [],
    jurisdictions: [],
    expires_at: null,
  }),
);

/** A small stable hash of a text (FNV-1a), to spread names over lists. */
export function textHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Stand-ins for compiled lists: each enabled list holds exactly those of `listed` that hash to it, as a real
 * list artifact read into a {@link DomainSet}, so that the decision function looks them up as it does a
 * node's lists.
 */
function standInLists(lists: DecidingProfile['lists'], listed: readonly string[]): FilterList[] {
  if (lists.length === 0) return [];
  const lines = lists.map(() => [LIST_ARTIFACT_HEADER]);
  for (const name of listed) lines[textHash(name) % lists.length]?.push(artifactLine(name, 'exact', false));
  const encoder = new TextEncoder();
  return lists.map((list, index) => ({
    listId: list.id,
    kind: 'list',
    name: list.name,
    set: DomainSet.fromArtifact(encoder.encode(`${(lines[index] as string[]).join('\n')}\n`)),
  }));
}

/**
 * Decides each distinct name with the decision function shared with the reference node and every node built
 * on the kit (`decideQuery`), so that simulated rows carry the reasons, list ids and EDE an edge would give:
 * operator block, suspension, allow, deny, lists, rewrite, forward. `listed` are the names the stand-in lists
 * hold when the profile brings no compiled lists. Operator entries are decided as a self-hosted node does
 * (PoP `node`): the simulation decides per profile, not per PoP. Each name is decided once for the whole window
 * of past days: as the device and at the instant of `profile.decideAs` when given (schedules, pauses and
 * allowances then apply as at that instant), else with no time (no schedule active, nothing expires).
 */
export function simulatedDecisions(
  profile: DecidingProfile,
  names: readonly string[],
  listed: readonly string[] = [],
): SimulatedDecision[] {
  const { time_zone: timeZone, ...policy } = profile.policy ?? {};
  const context = prepareFiltering({
    profile: {
      filtering: !profile.suspended,
      settings: { block_mode: profile.settings.block_mode, time_zone: timeZone },
      rules: profile.rules,
      ...policy,
    },
    lists: profile.compiledLists ?? standInLists(profile.lists, listed),
    operatorBlocks: profile.operatorBlocks ?? SIMULATED_OPERATOR_BLOCK_ENTRIES,
  });
  return names.map((name): SimulatedDecision => {
    const decision = decideQuery(context, { name, ...profile.decideAs });
    const rewrites = decision.rewrites;
    return {
      ...loggedDecision(decision),
      status: decision.status,
      blockMode: decision.blockMode,
      ede: decision.ede,
      edeText: decision.edeText,
      rewriteV4: rewrites.filter((target) => target.type === 'A').map((target) => target.data),
      rewriteV6: rewrites.filter((target) => target.type === 'AAAA').map((target) => target.data),
    };
  });
}
