import { plural } from '../plural.js';

/** The profile pages: overview, security, parental controls, settings, rules, blocklists, linked IPs, devices. */
export const profiles = {
  // Toggles that apply at once.
  'profiles.toggle.appliesAtOnce': 'Each switch applies at once.',
  'profiles.toggle.on': (p: { what: string }) => `${p.what}: on.`,
  'profiles.toggle.off': (p: { what: string }) => `${p.what}: off.`,
  'profiles.toggle.refused': (p: { detail: string }) => `the service refused it (${p.detail}).`,

  // Security.
  'profiles.security.title': 'Security',
  'profiles.security.legend': 'Protection',
  'profiles.security.withLists': (p: { hint: string; lists: readonly string[] }) =>
    `${p.hint} Lists: ${p.lists.join(', ')}.`,
  'profiles.security.threat_intel': 'Block threats from intelligence feeds',
  'profiles.security.threat_intel.hint':
    'Malware, phishing and command-and-control names from the threat feeds below.',
  'profiles.security.nrd': 'Block newly registered domains',
  'profiles.security.nrd.hint': 'Names registered in the last few weeks, which phishing and malware favour.',
  'profiles.security.dga': 'Block algorithm-generated names',
  'profiles.security.dga.hint': 'Random-looking names malware makes up to find its servers.',
  'profiles.security.typosquat': 'Block typo-squatting',
  'profiles.security.typosquat.hint': 'Names one typo away from well-known ones, registered to catch mistakes.',
  'profiles.security.idn_homograph': 'Block look-alike international names',
  'profiles.security.idn_homograph.hint':
    'Names whose letters imitate others (a Cyrillic “а” in place of a Latin “a”).',
  'profiles.security.rebinding': 'Block DNS rebinding',
  'profiles.security.rebinding.hint':
    'Public names answering with private addresses, a way web pages reach devices on your network.',
  'profiles.security.cryptojacking': 'Block cryptojacking',
  'profiles.security.cryptojacking.hint': 'Scripts that mine cryptocurrency in the browser without asking.',
  'profiles.security.csam': 'Block child sexual abuse material',
  'profiles.security.csam.hint': 'Names on the lists of the organisations that track such material.',

  // Blocklists.
  'profiles.blocklists.title': 'Blocklists',
  'profiles.blocklists.loading': 'Loading the catalogue…',
  'profiles.blocklists.intro': (p: { version: number; updated: string }) =>
    `Blocklists maintained by others, compiled by the service (catalogue version ${p.version}, ${p.updated}). Your own rules and allowed names always win.`,
  'profiles.blocklists.byIdLegend': 'Lists you turn on here',
  'profiles.blocklists.bySettingTitle': 'Lists behind security and parental settings',
  'profiles.blocklists.turnedOnWith': (p: { setting: string }) => `Turned on with “${p.setting}” in`,
  'profiles.blocklists.categorySetting': (p: { name: string }) => `Block the ${p.name} category`,
  'profiles.blocklists.otherSetting': 'a setting of this profile',
  'profiles.blocklists.entries': 'Entries',
  'profiles.blocklists.builtAt': 'Last update',
  'profiles.blocklists.lastFetch': 'Last download',
  'profiles.blocklists.noFetchYet': 'Not downloaded yet',
  'profiles.blocklists.fetchOk': (p: { when: string }) => `Downloaded ${p.when}.`,
  'profiles.blocklists.fetchUnchanged': (p: { when: string }) => `Checked ${p.when}: unchanged.`,
  'profiles.blocklists.fetchFailed': (p: { when: string }) => `Download failed ${p.when}.`,
  'profiles.blocklists.keptLastGood': (p: { sources: readonly string[] }) =>
    `The last good version of ${p.sources.join(', ')} stays in use.`,
  'profiles.blocklists.neverFetched':
    'Not downloaded yet: this list blocks nothing until the service first fetches its sources.',
  'profiles.blocklists.neverBuilt':
    'Not compiled yet: this list blocks nothing until a download of its sources succeeds.',
  'profiles.blocklists.sourcesOf': (p: { name: string }) => `Sources and licences of ${p.name}`,
  'profiles.blocklists.source': 'Source',
  'profiles.blocklists.licence': 'Licence',

  // Parental controls.
  'profiles.parental.title': 'Parental controls',
  'profiles.parental.loading': 'Loading the catalogues…',
  'profiles.parental.aCategory': 'a category',
  'profiles.parental.searchLegend': 'Search engines and video',
  'profiles.parental.safe_search': 'Force safe search',
  'profiles.parental.safe_search.hint': 'Google, Bing, DuckDuckGo and others show only safe results.',
  'profiles.parental.youtube_restricted': 'Force YouTube restricted mode',
  'profiles.parental.youtube_restricted.hint': 'YouTube hides videos that may be inappropriate.',
  'profiles.parental.categoriesLegend': 'Block these categories',
  'profiles.parental.servicesLegend': 'Block these services',
  'profiles.parental.findService': 'Find a service',
  'profiles.parental.serviceCount': (p: { count: number }) =>
    plural('en', p.count, { one: '# service', other: '# services' }),
  'profiles.parental.serviceMatches': (p: { shown: number; count: number }) =>
    `${p.shown} of ${plural('en', p.count, { one: '# service matches', other: '# services match' })}`,
  'profiles.parental.serviceBlocked': 'Blocked',
  'profiles.parental.serviceBlockedByCategory': (p: { categories: readonly string[] }) =>
    `Blocked by category: ${p.categories.join(', ')}`,
  'profiles.parental.serviceAllowed': 'Allowed',
  'profiles.parental.blocked': (p: { name: string }) => `${p.name}: blocked.`,
  'profiles.parental.allowed': (p: { name: string }) => `${p.name}: allowed.`,

  // Forms that save several fields at once.
  'profiles.form.saved': 'Saved. The resolvers use the change within seconds.',
  'profiles.form.loadLatest': 'Load the latest version',

  // Settings.
  'profiles.settings.title': 'Settings',
  'profiles.settings.loading': 'Loading the choices…',
  'profiles.settings.save': 'Save settings',
  'profiles.settings.logsTitle': 'Logs',
  'profiles.settings.togglesApplyAtOnce':
    'The switches apply at once; the other choices are saved with the button below.',
  'profiles.settings.resolverTitle': 'Resolver',
  'profiles.settings.name': 'Profile name',
  'profiles.settings.block_mode': 'Answer to blocked queries',
  'profiles.settings.logs_enabled': 'Keep query logs',
  'profiles.settings.log_client_ip': 'Keep client IP addresses in logs',
  'profiles.settings.log_domains': 'Keep queried names in logs',
  'profiles.settings.log_domains.hint': 'Off: rows keep the time and outcome only.',
  'profiles.settings.log_destination': 'Where logs go',
  'profiles.settings.retention_days': 'Cloud log retention (days)',
  'profiles.settings.retention_days.hint': 'How long the cloud keeps each query.',
  'profiles.settings.node_queue_hours': 'Hours of logs kept for an offline node',
  'profiles.settings.node_queue_hours.hint':
    'While your node is offline, the cloud holds its logs this long and hands them over when it is back; 0 holds nothing.',
  'profiles.settings.log_region': 'Log storage region',
  'profiles.settings.cname_uncloak': 'Apply rules to CNAME targets',
  'profiles.settings.cname_uncloak.hint': 'Blocks trackers that hide behind a CNAME to a blocked name.',
  'profiles.settings.cache_boost_ttl': 'Minimum cache time (seconds)',
  'profiles.settings.cache_boost_ttl.hint': 'Answers are cached at least this long; 0 keeps the upstream times.',
  'profiles.settings.ecs': 'Client subnet (ECS) sent upstream',
  'profiles.settings.block_mode.nxdomain': 'The name does not exist (NXDOMAIN)',
  'profiles.settings.block_mode.nxdomain.hint': 'Most apps give up at once.',
  'profiles.settings.block_mode.refused': 'Refused (REFUSED)',
  'profiles.settings.block_mode.null': 'A null address (0.0.0.0 and ::)',
  'profiles.settings.block_mode.null.hint': 'Connections fail immediately.',
  'profiles.settings.block_mode.block-page': 'The block page',
  'profiles.settings.block_mode.block-page.hint': 'Browsers show a page saying why the site is blocked.',
  'profiles.settings.destination.cloud': 'The cloud',
  'profiles.settings.destination.cloud.hint': 'Searchable here for the retention period below.',
  'profiles.settings.destination.self-hosted': 'My self-hosted node only',
  'profiles.settings.destination.self-hosted.hint': 'The logs never leave your network.',
  'profiles.settings.destination.both': 'Both the cloud and my node',
  'profiles.settings.destination.none': 'Nowhere',
  'profiles.settings.destination.none.hint': 'No query is logged; analytics keep hourly totals only.',
  'profiles.settings.ecs.off': 'Off',
  'profiles.settings.ecs.off.hint': 'Upstream servers learn nothing about your network.',
  'profiles.settings.ecs.anonymised': 'Anonymised',
  'profiles.settings.ecs.anonymised.hint': 'Your network, shortened to a /24 (IPv4) or /56 (IPv6).',
  'profiles.settings.ecs.full': 'Full',
  'profiles.settings.ecs.full.hint': 'Your address itself, for the most precise CDN answers.',
  'profiles.settings.region.ca': 'Canada',
  'profiles.settings.region.eu': 'European Union',
  'profiles.settings.notSupported': 'not supported',
  'profiles.settings.deleteTitle': 'Delete this profile',
  'profiles.settings.deleteIntro':
    'Devices using its addresses stop resolving through it. Its logs are erased with it. This cannot be undone.',
  'profiles.settings.deleteConfirm': (p: { name: string }) => `Delete ${p.name} for good?`,
  'profiles.settings.deleteYes': (p: { name: string }) => `Yes, delete ${p.name}`,
  'profiles.settings.deleteKeep': 'Keep it',
  'profiles.settings.deleteButton': 'Delete profile',
} as const;
