import { plural } from '../plural.js';

/** The profile pages: overview, security, parental controls, settings, rules, blocklists, linked IPs, devices. */
export const profiles = {
  // The list of profiles.
  'profiles.list.title': 'Profiles',
  'profiles.list.intro':
    'A profile is one set of filtering choices, with its own DNS addresses for the devices that use it.',
  'profiles.list.deleted': (p: { name: string }) => `Profile ${p.name} is deleted.`,
  'profiles.list.loading': 'Loading profiles…',
  'profiles.list.none': 'You have no profile yet. Create one below.',
  'profiles.list.yours': 'Your profiles',
  'profiles.list.suspended': 'Suspended',
  'profiles.paused.badge': 'Paused',
  'profiles.paused.until': (p: { until: string }) => `until ${p.until}`,
  'profiles.list.logsOf': (p: { name: string }) => `Logs of ${p.name}`,
  'profiles.list.analyticsOf': (p: { name: string }) => `Analytics of ${p.name}`,
  'profiles.list.create': 'Create a profile',
  'profiles.list.name': 'Name',
  'profiles.list.nameHint':
    "For example Home or Kids' tablets. The settings start from the service's defaults.",
  'profiles.list.createButton': 'Create profile',

  // The frame of every profile page.
  'profiles.frame.navigation': 'Profile',
  'profiles.frame.loading': 'Loading the profile…',
  'profiles.frame.profile': 'Profile',
  'profiles.frame.profiles': 'Profiles',
  'profiles.frame.allProfiles': 'All profiles',
  'profiles.frame.suspended': 'An operator suspended this profile.',
  'profiles.frame.suspendedDetail':
    'It resolves without filtering, rules, lists or logging, and refuses changes until it is reinstated. You can still read it.',
  'profiles.tab.overview': 'Overview',
  'profiles.tab.security': 'Security',
  'profiles.tab.parental': 'Parental',
  'profiles.tab.settings': 'Settings',
  'profiles.tab.rules': 'Rules',
  'profiles.tab.blocklists': 'Blocklists',
  'profiles.tab.linkedIps': 'Linked IPs',
  'profiles.tab.devices': 'Devices',
  'profiles.tab.logs': 'Logs',
  'profiles.tab.analytics': 'Analytics',
  'profiles.tab.nodes': 'Nodes',

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
  'profiles.security.typosquat.hint':
    'Names one typo away from well-known ones, registered to catch mistakes.',
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
  'profiles.form.readAgain':
    'Your save was not stored, so nothing was overwritten. The page has read the profile again.',
  'profiles.form.notSaved': 'These changes were not saved:',
  'profiles.form.notSavedField': (p: { field: string; entered: string; stored: string }) =>
    `${p.field}: you entered “${p.entered}”; stored now: “${p.stored}”.`,
  'profiles.form.stillInForm': 'Your changes are still in the form: save again to store them.',
  'profiles.form.formShowsStored':
    'The form now shows what is stored. Make your changes again if you still want them, then save.',

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
  'profiles.settings.time_zone': 'Time zone',
  'profiles.settings.time_zone.hint':
    'Schedules are read in this zone, for example Europe/Berlin or America/New_York. Start typing a city.',
  'profiles.settings.cname_uncloak': 'Apply rules to CNAME targets',
  'profiles.settings.cname_uncloak.hint': 'Blocks trackers that hide behind a CNAME to a blocked name.',
  'profiles.settings.cache_boost_ttl': 'Minimum cache time (seconds)',
  'profiles.settings.cache_boost_ttl.hint':
    'Answers are cached at least this long; 0 keeps the upstream times.',
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

  // The overview: addresses and device setup.
  'profiles.overview.version': (p: { version: number; changed: string }) =>
    `Version ${p.version}, changed ${p.changed}.`,
  'profiles.overview.loadingSetup': 'Loading the setup values…',
  'profiles.overview.addresses': 'Addresses',
  'profiles.overview.doh': 'DNS-over-HTTPS (DoH)',
  'profiles.overview.dohName': 'DoH URL',
  'profiles.overview.dot': 'DNS-over-TLS (DoT)',
  'profiles.overview.dotName': 'DoT host name',
  'profiles.overview.dotDevice': (p: { host: string }) =>
    `To see a device by name in the logs, use ${p.host} with <device> replaced by its name.`,
  'profiles.overview.doq': 'DNS-over-QUIC (DoQ)',
  'profiles.overview.doqName': 'DoQ address',
  'profiles.overview.ipv6': 'IPv6',
  'profiles.overview.ipv6Name': (p: { index: number }) => `IPv6 address ${p.index}`,
  'profiles.overview.ipv4': 'IPv4 (linked networks)',
  'profiles.overview.ipv4Name': (p: { index: number }) => `IPv4 address ${p.index}`,
  'profiles.overview.setUp': 'Set up a device',
  'profiles.overview.apple': 'iPhone, iPad and Mac',
  'profiles.overview.appleIntro':
    'Install the configuration profile: it sets DNS-over-HTTPS for the whole device.',
  'profiles.overview.android': 'Android',
  'profiles.overview.androidName': 'Private DNS host name',
  'profiles.overview.windows': 'Windows',
  'profiles.overview.windowsName': 'DoH template',
  'profiles.overview.linux': 'Linux (systemd-resolved)',
  'profiles.overview.browsers': 'Browsers',
  'profiles.overview.routers': 'Routers and plain DNS',
  'profiles.overview.routersNote':
    'Plain DNS cannot carry the profile: the network is recognised by its public address, once a request from it proves it. Link it from a device on the network, or give the router the DDNS update URL of a linked network: each call the router makes proves its current address.',
  'profiles.overview.linkNetwork': 'Link this network’s IP address',
  'profiles.overview.onPhone': 'On a phone',
  'profiles.overview.drawingQr': 'Drawing the QR codes…',
  'profiles.overview.download': 'Download the configuration profile',
  'profiles.overview.downloading': 'Downloading…',
  'profiles.overview.qrPage': 'QR code opening this setup page on a phone',
  'profiles.overview.qrPageCaption': 'Scan to open this page on your phone, then download the profile there.',
  'profiles.overview.qrAndroid': 'QR code of the Android Private DNS host name',
  'profiles.overview.qrAndroidCaption': 'Android: scan, copy the host name, paste it in Private DNS.',
  'profiles.copy': (p: { name: string }) => `Copy the ${p.name}`,
  'profiles.setup.apple.install':
    'Open the downloaded profile and install it in Settings (iOS, iPadOS) or System Settings (macOS).',
  'profiles.setup.apple.apps': (p: { doh: string }) => `Apps that take a DoH URL can use ${p.doh} instead.`,
  'profiles.setup.android.open':
    'Android 9 or later: open Settings, Network & internet, Private DNS (menus vary by maker).',
  'profiles.setup.android.host': (p: { host: string }) =>
    `Choose “Private DNS provider hostname” and enter ${p.host}.`,
  'profiles.setup.android.device': (p: { host: string }) =>
    `To name the device in logs, enter ${p.host} with <device> replaced by its name.`,
  'profiles.setup.windows.open':
    'Windows 11: open Settings, Network & internet, the connection, DNS server assignment, Edit, Manual.',
  'profiles.setup.windows.servers': (p: { servers: string }) => `Enter the DNS servers ${p.servers}.`,
  'profiles.setup.windows.template': (p: { template: string }) =>
    `For each, set DNS over HTTPS to “On (manual template)” with the template ${p.template}.`,
  'profiles.setup.linux.file': 'Put these lines in /etc/systemd/resolved.conf.',
  'profiles.setup.linux.restart': 'Restart it with systemctl restart systemd-resolved.',
  'profiles.setup.browsers.chrome': (p: { doh: string }) =>
    `Chrome and Edge: turn on “Use secure DNS” and choose a custom provider: ${p.doh}.`,
  'profiles.setup.browsers.firefox': (p: { doh: string }) =>
    `Firefox: turn on DNS over HTTPS with a custom provider: ${p.doh}.`,
  'profiles.setup.routers.encrypted': (p: { dot: string; doh: string }) =>
    `If the router supports DNS-over-TLS, use the host ${p.dot}; if it supports DNS-over-HTTPS, use ${p.doh}.`,
  'profiles.setup.routers.plain': (p: { servers: string }) =>
    `Otherwise set its DNS servers to ${p.servers} and link the network’s public IPv4 address on the Linked IPs page.`,
  'profiles.setup.routers.ddns':
    'With a public address that changes, have the router call the linked network’s DDNS update URL at every change: each call proves the address its traffic comes from.',

  // Rules.
  'profiles.rules.title': 'Rules',
  'profiles.rules.loading': 'Loading the rules…',
  'profiles.rules.deny': 'Denied names',
  'profiles.rules.denyIntro': 'Blocked whatever the lists say.',
  'profiles.rules.allow': 'Allowed names',
  'profiles.rules.allowIntro': 'Never blocked: an allowed name wins over every list and denied name.',
  'profiles.rules.rewrites': 'Rewrites',
  'profiles.rules.rewritesIntro': 'Answered with your own address or host name instead of the real one.',
  'profiles.rules.syntaxDomain': 'A rule names a domain and everything under it',
  'profiles.rules.syntaxExact': 'exactly one name',
  'profiles.rules.syntaxUnder': 'or only what is under it',
  'profiles.rules.search': 'Search the rules',
  'profiles.rules.none': 'None yet.',
  'profiles.rules.noMatch': 'No rule here matches the search.',
  'profiles.rules.remove': 'Remove',
  'profiles.rules.removeOne': (p: { rule: string }) => `Remove ${p.rule}`,
  'profiles.rules.loadLatest': 'Load the latest rules',
  'profiles.rules.addTo': (p: { list: string }) => `Add to ${p.list.toLowerCase()}`,
  'profiles.rules.adding': 'Adding…',
  'profiles.rules.pasteHint': 'One a line; paste as many as you like.',
  'profiles.rules.rewriteHint': 'A name, a space, then its answer.',
  'profiles.rules.forExample': 'For example:',
  'profiles.rules.linesToCorrect': (p: { list: string }) => `Lines to correct in ${p.list}`,
  'profiles.rules.line': (p: { line: number }) => `Line ${p.line}`,
  'profiles.rules.theAnswer': 'The answer',
  'profiles.rules.thePattern': 'The pattern',
  'profiles.rules.it': 'It',
  'profiles.rules.nothingToAdd': 'There is nothing to add',
  'profiles.rules.nothingToAddAdvice': 'Type or paste the rules, one a line.',
  'profiles.rules.singleAlready': (p: { rule: string }) => `${p.rule} was already there; nothing was added.`,
  'profiles.rules.allAlready': (p: { count: number }) =>
    `All ${plural('en', p.count, { one: '# rule', other: '# rules' })} were already there; nothing was added.`,
  'profiles.rules.added': (p: { count: number }) =>
    `Added ${plural('en', p.count, { one: '# rule', other: '# rules' })}.`,
  'profiles.rules.addedSome': (p: { count: number; already: number }) =>
    `Added ${plural('en', p.count, { one: '# rule', other: '# rules' })}; ${plural('en', p.already, { one: '# was', other: '# were' })} already there.`,

  // Devices.
  'profiles.devices.title': 'Devices',
  'profiles.devices.intro':
    'Devices appear once they query with their name in the DoT host or DoH path (see the overview). Forgetting one removes its name, kind and notes; its logs stay, and it appears as new when seen again.',
  'profiles.devices.loading': 'Loading the devices…',
  'profiles.devices.none': 'No device has been seen yet.',
  'profiles.devices.kind.phone': 'Phone',
  'profiles.devices.kind.laptop': 'Laptop or computer',
  'profiles.devices.kind.tv': 'TV or media player',
  'profiles.devices.kind.router': 'Router',
  'profiles.devices.kind.other': 'Other',
  'profiles.devices.displayName': 'Name shown',
  'profiles.devices.displayNameHint': 'Leave empty to show the name the device sends.',
  'profiles.devices.displayNameHintSent': (p: { name: string }) =>
    `Leave empty to show the name the device sends (${p.name}).`,
  'profiles.devices.kind': 'Kind',
  'profiles.devices.notes': 'Notes',
  'profiles.devices.id': 'Id',
  'profiles.devices.connectsWith': 'Connects with',
  'profiles.devices.namedInSni': '(named in the TLS host)',
  'profiles.devices.namedInPath': '(named in the DoH path)',
  'profiles.devices.lastSeen': 'Last seen',
  'profiles.devices.first': 'first',
  'profiles.devices.last24h': 'Last 24 hours',
  'profiles.devices.notAvailable': 'not available',
  'profiles.devices.counts': (p: { queries: string; blocked: string }) =>
    `${p.queries} queries, ${p.blocked} blocked`,
  'profiles.devices.save': 'Save device',
  'profiles.devices.edit': (p: { name: string }) => `Edit ${p.name}`,
  'profiles.devices.editButton': 'Edit',
  'profiles.devices.forget': 'Forget',
  'profiles.devices.forgetOne': (p: { name: string }) => `Forget ${p.name}`,
  'profiles.devices.forgetYes': (p: { name: string }) => `Yes, forget ${p.name}`,

  // Linked IPs.
  'profiles.linkedIps.title': 'Linked IPs',
  'profiles.linkedIps.intro':
    'Devices that cannot use encrypted DNS (older TVs, consoles, a whole router) send plain DNS to the service’s IPv4 addresses. The service knows them by the public address they come from: link it here. An address is used only once it is proven by a request from it, so link a network from a device on it, or give the router a DDNS update URL.',
  'profiles.linkedIps.loading': 'Loading the linked addresses…',
  'profiles.linkedIps.none': 'No address is linked.',
  'profiles.linkedIps.list': 'Linked addresses',
  'profiles.linkedIps.waiting': 'Waiting for its first DDNS update',
  'profiles.linkedIps.ddnsBadge': 'DDNS',
  'profiles.linkedIps.pendingBadge': 'Pending proof',
  'profiles.linkedIps.linkedAt': 'Linked',
  'profiles.linkedIps.changedAt': 'last changed',
  'profiles.linkedIps.pendingHint':
    'Not used yet: open its proof URL from that network within 24 hours of linking, or the claim expires.',
  'profiles.linkedIps.unlink': 'Unlink',
  'profiles.linkedIps.unlinkOne': (p: { name: string }) => `Unlink ${p.name}`,
  'profiles.linkedIps.theEmptySlot': 'the empty slot',
  'profiles.linkedIps.theEmptyDdnsSlot': 'the empty DDNS slot',
  'profiles.linkedIps.showUrl': 'Show the DDNS update URL',
  'profiles.linkedIps.showUrlOf': (p: { name: string }) => `Show the DDNS update URL of ${p.name}`,
  'profiles.linkedIps.loadingUrl': 'Loading the update URL…',
  'profiles.linkedIps.urlHint':
    'Have your router (or a scheduled curl) call this address from the network, now and whenever its public address changes: each call proves the address it comes from. Keep it secret: anyone with it can move this link.',
  'profiles.linkedIps.urlName': 'DDNS update URL',
  'profiles.linkedIps.rotated': 'New update URL made: the old one stopped working.',
  'profiles.linkedIps.rotate': 'Rotate the URL',
  'profiles.linkedIps.rotateOf': (p: { name: string }) => `Rotate the DDNS update URL of ${p.name}`,
  'profiles.linkedIps.rotateConfirm': 'Replace the URL',
  'profiles.linkedIps.rotateWarning': 'The old URL stops at once.',
  'profiles.linkedIps.thisNetwork': 'Link this network',
  'profiles.linkedIps.thisNetworkIntro':
    'Links the public address this browser comes from, proven by this very request.',
  'profiles.linkedIps.linked': (p: { ip: string }) => `${p.ip} is linked.`,
  'profiles.linkedIps.ipv6': (p: { ip: string }) =>
    `You are connected over IPv6 (${p.ip}); only IPv4 addresses can be linked.`,
  'profiles.linkedIps.anAddress': 'Link an address',
  'profiles.linkedIps.ip': 'IPv4 address',
  'profiles.linkedIps.ipHint':
    'The network’s public address, for example 203.0.113.7. Linked from elsewhere, it waits for its proof.',
  'profiles.linkedIps.claimed': (p: { ip: string }) =>
    `${p.ip} is claimed but not proven: this browser is not on that network. Open this proof URL from the network (a device on it, or its router) within 24 hours; until then it is not used.`,
  'profiles.linkedIps.proofUrl': 'Proof URL',
  'profiles.linkedIps.linking': 'Linking…',
  'profiles.linkedIps.linkAddress': 'Link this address',
  'profiles.linkedIps.changing': 'An address that changes',
  'profiles.linkedIps.changingIntro':
    'Create an empty slot, then give its update URL to your router’s dynamic DNS client: each call moves the link to the address it comes from.',
  'profiles.linkedIps.slotCreated':
    'A DDNS slot is created: show its update URL above and give it to your router.',
  'profiles.linkedIps.createSlot': 'Create a DDNS slot',
} as const;
