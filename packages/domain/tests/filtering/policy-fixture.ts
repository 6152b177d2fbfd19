import {
  DomainSet,
  decideQuery,
  type FilteringInputs,
  type FilteringProfile,
  type FilterList,
  ListCompiler,
  type OperatorBlockEntry,
  prepareFiltering,
  type QueryDecision,
} from '../../src/index.js';

/** A compiled domains-format list of exact names. */
function listOf(names: readonly string[]): DomainSet {
  const compiler = new ListCompiler('domains');
  compiler.pushText(`${names.join('\n')}\n`);
  return DomainSet.fromArtifact(Buffer.concat([...compiler.finish().chunks()]));
}

const operatorBlock = (pattern: string): OperatorBlockEntry => ({
  pattern,
  reason_code: 'csam',
  public_ref: 'Operator block 7',
  pops: [],
  jurisdictions: [],
  expires_at: null,
});

/**
 * A household's lists: ads (enabled list 3), YouTube and TikTok (parental services), games (a parental
 * category), malware (security), and Roblox, a parental service only a device chooses.
 */
export function householdLists(): FilterList[] {
  return [
    { listId: 3, kind: 'list', name: 'Ads', ref: 'list:3', set: listOf(['ads.example']) },
    { listId: 901, kind: 'parental', name: 'YouTube', ref: 'service:youtube', set: listOf(['youtube.com']) },
    { listId: 902, kind: 'parental', name: 'TikTok', ref: 'service:tiktok', set: listOf(['tiktok.com']) },
    { listId: 950, kind: 'parental', name: 'Games', ref: 'category:games', set: listOf(['games.example']) },
    {
      listId: 990,
      kind: 'security',
      name: 'Malware',
      ref: 'security:malware',
      set: listOf(['malware.example']),
    },
    {
      listId: 903,
      kind: 'parental',
      name: 'Roblox',
      ref: 'service:roblox',
      deviceOnly: true,
      set: listOf(['roblox.com']),
    },
  ];
}

/** A profile in `zone` with rules and no schedule, pause, allowance or device unless overridden. */
function policyProfile(overrides: Partial<FilteringProfile> = {}, zone = 'Europe/Berlin'): FilteringProfile {
  return {
    filtering: true,
    paused_until: null,
    settings: { block_mode: 'nxdomain', time_zone: zone },
    rules: {
      deny: ['denied.example', 'social.example'],
      allow: ['allowed.example'],
      rewrites: [{ pattern: 'printer.home', answer: '192.168.1.9' }],
    },
    ...overrides,
  };
}

export function policyInputs(overrides: Partial<FilteringProfile> = {}, zone?: string): FilteringInputs {
  return {
    profile: policyProfile(overrides, zone),
    lists: householdLists(),
    operatorBlocks: [operatorBlock('forbidden.example')],
  };
}

/** A decider over one prepared context (schedules' states and device views are kept between queries). */
export function decider(inputs: FilteringInputs) {
  const context = prepareFiltering(inputs);
  return {
    context,
    decide: (name: string, at?: number, device?: string): QueryDecision =>
      decideQuery(context, {
        name,
        ...(at === undefined ? {} : { at }),
        ...(device === undefined ? {} : { device }),
      }),
  };
}

export const utc = (text: string): number => Date.parse(text);
