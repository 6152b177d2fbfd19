import { formatNumber } from '../format.js';
import { plural } from '../plural.js';

/** The operator pages about lists and blocks: list reports, list sources, operator blocks, source blocks. */
export const operatorLists = {
  // List reports.
  'operator.reports.title': 'List reports',
  'operator.reports.show': 'Show reports',
  'operator.reports.status.open': 'Open',
  'operator.reports.status.accepted': 'Accepted',
  'operator.reports.status.rejected': 'Rejected',
  'operator.reports.none': 'No report in this state.',
  'operator.reports.more': 'Show more reports',
  'operator.reports.list': 'Reports, oldest due first',
  'operator.reports.listName': (p: { id: number }) => `List ${p.id}`,
  'operator.reports.on': ' on ',
  'operator.reports.kind': 'Report',
  'operator.reports.kind.false_positive': 'Blocked but should not be',
  'operator.reports.kind.false_negative': 'Should be blocked but is not',
  'operator.reports.note': 'Reporter’s note',
  'operator.reports.listVersion': 'List version',
  'operator.reports.profile': 'Profile',
  'operator.reports.ofOrganisation': ' of organisation ',
  'operator.reports.reported': 'Reported',
  'operator.reports.due': 'Due',
  'operator.reports.overdue': ' (overdue)',
  'operator.reports.outcome': 'Outcome',
  'operator.reports.decideOn': (p: { domain: string }) => `Decide on ${p.domain}`,
  'operator.reports.decision': 'Decision',
  'operator.reports.accept': 'Accept',
  'operator.reports.accept.hint': 'A candidate for the curated lists, reviewed before any change.',
  'operator.reports.reject': 'Reject',
  'operator.reports.resolutionNote': 'Note to the reporter',
  'operator.reports.resolutionNote.hint': 'Emailed to the reporter with the outcome.',
  'operator.reports.record': 'Record the decision',
  'operator.reports.recording': 'Recording…',

  // List sources.
  'operator.sources.title': 'List sources',
  'operator.sources.loading': 'Loading the sources…',
  'operator.sources.list': 'List sources',
  'operator.sources.lists': (p: { lists: readonly string[] }) => `lists ${p.lists.join(', ')}`,
  'operator.sources.entries': (p: { count: number }) =>
    plural('en', p.count, {
      one: '# entry in the last good version',
      other: '# entries in the last good version',
    }),
  'operator.sources.lastGood': ' · last good fetch ',
  'operator.sources.invalid': (p: { count: number }) =>
    ` · ${plural('en', p.count, { one: '# invalid line', other: '# invalid lines' })}`,
  'operator.sources.neverFetched': 'Never fetched.',
  'operator.sources.fetch.ok': 'Fetched',
  'operator.sources.fetch.not_modified': 'Unchanged (304)',
  'operator.sources.fetch.failed': 'Failed',
  'operator.sources.httpStatus': (p: { status: number }) => ` (HTTP ${p.status})`,
  'operator.sources.failures': (p: { count: number }) =>
    ` · ${plural('en', p.count, { one: '# failure in a row', other: '# failures in a row' })}`,
  'operator.sources.whyFailed': (p: { name: string }) => `Why ${p.name} failed`,

  // What operator blocks and source blocks share.
  'operator.entry.where': 'Where it applies',
  'operator.entry.pops': 'PoPs',
  'operator.entry.pops.hint': 'None chosen: every PoP. Hold Ctrl or ⌘ to choose several.',
  'operator.entry.pop': (p: { name: string; id: string }) => `${p.name} (${p.id})`,
  'operator.entry.jurisdictions': 'Jurisdictions',
  'operator.entry.jurisdictions.hint': 'Country codes separated by commas (CA, DE); empty: everywhere.',
  'operator.entry.expires': 'Expires',
  'operator.entry.scope.pops': (p: { pops: readonly string[] }) => `PoPs ${p.pops.join(', ')}`,
  'operator.entry.scope.everywhere': 'Everywhere',
  'operator.entry.show': 'Show',
  'operator.entry.status.live': 'Live',
  'operator.entry.status.expired': 'Expired',
  'operator.entry.status.removed': 'Removed',
  'operator.entry.created': 'Created',
  'operator.entry.createdBy': ' by ',
  'operator.entry.remove': 'Remove',
  'operator.entry.remove.aria': (p: { what: string }) => `Remove ${p.what}`,
  'operator.entry.remove.confirm': (p: { what: string }) => `Yes, remove ${p.what}`,
  'operator.entry.removedAt': 'Removed ',
  'operator.entry.blocking': 'Blocking…',

  // Operator blocks.
  'operator.blocks.title': 'Operator blocks',
  'operator.blocks.create': 'Block a domain',
  'operator.blocks.intro':
    'Every resolver in scope answers the pattern NXDOMAIN with Extended DNS Error 15, whatever the profile.',
  'operator.blocks.created': (p: { pattern: string; version: number }) =>
    `Blocked ${p.pattern}: operator blocks file version ${formatNumber(p.version)}.`,
  'operator.blocks.removed': (p: { version: number }) =>
    `Removed: operator blocks file version ${formatNumber(p.version)}.`,
  'operator.blocks.expires.hint': 'Empty: never.',
  'operator.blocks.submit': 'Create the block',
  'operator.blocks.pattern': 'Pattern',
  'operator.blocks.pattern.hint':
    'As in profile rules: example.com (and below), =example.com (exactly), *.example.com (only below).',
  'operator.blocks.reason': 'Reason',
  'operator.blocks.reason.legal_order': 'Legal order',
  'operator.blocks.reason.abuse': 'Abuse',
  'operator.blocks.reason.csam': 'Child sexual abuse material',
  'operator.blocks.reason.csam.hint':
    'Fleet-wide: no PoP or jurisdiction scope; the pattern is audited as a digest.',
  'operator.blocks.publicRef': 'Public reference',
  'operator.blocks.publicRef.hint':
    'Shown to clients in the Extended DNS Error text (at most 100 characters).',
  'operator.blocks.note': 'Internal note',
  'operator.blocks.note.hint': 'For operators only; never published.',
  'operator.blocks.list': 'Blocks',
  'operator.blocks.none': 'No block in this state.',
  'operator.blocks.more': 'Show more blocks',
  'operator.blocks.caption': (p: { status: string }) => `${p.status} operator blocks, newest first`,
  'operator.blocks.scope': 'Scope',

  // Source blocks.
  'operator.sourceBlocks.title': 'Source blocks',
  'operator.sourceBlocks.create': 'Block an abusive source',
  'operator.sourceBlocks.created': (p: { cidr: string; version: number }) =>
    `Blocked ${p.cidr}: operator sources file version ${formatNumber(p.version)}.`,
  'operator.sourceBlocks.expires.hint': 'Required: a source block always expires.',
  'operator.sourceBlocks.submit': 'Block the source',
  'operator.sourceBlocks.cidr': 'Source prefix',
  'operator.sourceBlocks.cidr.hint': 'An IPv4 or IPv6 prefix, 203.0.113.0/24; stored masked.',
  'operator.sourceBlocks.reason': 'Reason',
  'operator.sourceBlocks.list': 'Blocked sources',
  'operator.sourceBlocks.none': 'No source block in this state.',
  'operator.sourceBlocks.more': 'Show more source blocks',
  'operator.sourceBlocks.caption': (p: { status: string }) => `${p.status} source blocks, newest first`,
  'operator.sourceBlocks.prefix': 'Prefix',
} as const;
