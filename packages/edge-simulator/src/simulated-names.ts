import { SeededRandom } from './seeded-random.js';

/** What a name of the simulated traffic is: an ordinary site, something lists block, or a name that does not exist. */
type SimulatedNameKind = 'site' | 'listed' | 'missing';

/** One name of the simulated traffic's pool, with the answers it resolves to. */
export interface SimulatedName {
  qname: string;
  kind: SimulatedNameKind;
  /** Company whose address space answers (`google`, …, `other`); the owner classification sees these. */
  owner: string;
  /** True when the zone is DNSSEC-signed, so a validated answer is possible. */
  signed: boolean;
  /** A answers (shared between rows: never modified). */
  v4: readonly string[];
  /** AAAA answers (shared between rows: never modified). */
  v6: readonly string[];
}

/**
 * Address space that answers for each owner: IPv4 /16 prefixes and an IPv6 /48, inside ranges the companies
 * announce, so that destination owners and countries see real-looking data.
 */
const ADDRESS_SPACE: Record<string, { v4: string[]; v6: string }> = {
  google: { v4: ['142.250', '142.251', '172.217', '216.58'], v6: '2607:f8b0:4004' },
  apple: { v4: ['17.253', '17.248', '17.57'], v6: '2620:149:a44' },
  meta: { v4: ['157.240', '31.13'], v6: '2a03:2880:f10c' },
  amazon: { v4: ['54.239', '3.33', '18.160', '52.94'], v6: '2600:1f18:24e6' },
  microsoft: { v4: ['13.107', '20.190', '40.126'], v6: '2603:1036:304' },
  cloudflare: { v4: ['104.16', '104.18', '172.67'], v6: '2606:4700:3030' },
  akamai: { v4: ['23.45', '23.215', '184.25'], v6: '2600:1406:3c00' },
  fastly: { v4: ['151.101'], v6: '2a04:4e42:200' },
  other: { v4: ['94.130', '195.201', '176.9', '139.59', '46.101', '89.234', '213.186'], v6: '2a01:4f8:c17' },
};

/**
 * Base names by rough popularity: `name owner kind signed subdomain-labels…`. Kinds: s (site), l (listed: ads,
 * trackers, malware), m (missing: NXDOMAIN). Signed: y or n.
 */
const BASES = `
google.com google s n www mail accounts apis play drive docs news maps
googleapis.com google s n www fonts storage content android clients6 firebaseinstallations
gstatic.com google s n www fonts ssl encrypted-tbn0 connectivitycheck
youtube.com google s n www m music studio
googlevideo.com google s n rr1---sn-4g5e6nsz rr2---sn-4g5ednsz rr3---sn-nx5e6nez redirector
icloud.com apple s n www p01-contacts gateway setup keyvalueservice
apple.com apple s n www mesu gs-loc configuration support
doubleclick.net google l n ad securepubads stats googleads static
facebook.com meta s n www graph m web connect
fbcdn.net meta s n static scontent-yyz1-1 video-yyz1-1 external
instagram.com meta s n www i graph
whatsapp.net meta s n mmg media-yyz1-1 g
microsoft.com microsoft s n www login go
windowsupdate.com microsoft s n dl ctldl fe2
live.com microsoft s n login outlook
office.com microsoft s n www outlook
amazon.com amazon s n www fls-na images-na
amazonaws.com amazon s n s3 ec2 dynamodb.us-east-1 sqs.us-east-1
cloudfront.net amazon s n d1a2b3c4d5e6f7 d2x9y8z7w6v5u4 dzx1y2w3v4u5t6
googlesyndication.com google l n pagead2 tpc
app-measurement.com google l n www
cloudflare.com cloudflare s y www dash api
cloudflare-dns.com cloudflare s y mozilla chrome
netflix.com amazon s n www api-global ichnaea
nflxvideo.net other s n ipv4-c001-yyz001-ix ipv4-c002-yyz001-ix
spotify.com google s n www api apresolve
scdn.co fastly s n i audio-ak-spotify-com
github.com microsoft s n www api codeload
githubusercontent.com fastly s n raw avatars objects
reddit.com fastly s n www oauth gql
redditmedia.com fastly s n styles preview
wikipedia.org other s y en fr upload
wikimedia.org other s y upload
akamaihd.net akamai s n a248 fbexternal-a
akamaized.net akamai s n ak vod-ak
tiktokcdn.com akamai s n p16-sign-va v16-webapp
tiktok.com akamai s n www m
adnxs.com microsoft l n ib secure acdn
scorecardresearch.com akamai l n sb b
crashlytics.com google l n settings reports
ads.linkedin.com microsoft l n px
linkedin.com microsoft s n www media
twitter.com other s n api www
x.com other s n api www
twimg.com fastly s n pbs abs
pinimg.com akamai s n i s
yahoo.com other s n www mail
yimg.com other s n s
ads.yahoo.com other l n www
criteo.com other l n static gum
taboola.com other l n cdn trc
outbrain.com other l n widgets log
hotjar.com amazon l n static script
mixpanel.com google l n api cdn
branch.io other l n api2 cdn
sentry.io google s n o12345 browser
slack.com amazon s n app edgeapi wss-primary
zoom.us amazon s n www us05web
discord.com cloudflare s n gateway cdn
discordapp.com cloudflare s n cdn media
steamcommunity.com akamai s n www
steampowered.com akamai s n store api
epicgames.com cloudflare s n www launcher-public-service-prod06
xboxlive.com microsoft s n title.mgt user.auth
playstation.net akamai s n np ps4-system
roblox.com cloudflare s n www apis
duckduckgo.com microsoft s n www links
bing.com microsoft s n www th
msn.com microsoft s n www assets
shopify.com cloudflare s n cdn monorail-edge
paypal.com akamai s n www t
stripe.com amazon s n js api m
cbc.ca akamai s n www
theweathernetwork.com other s n www
ctvnews.ca akamai s n www
lapresse.ca other s n www
nytimes.com fastly s n www static01
bbc.co.uk fastly s n www static
cnn.com fastly s n www cdn
espn.com akamai s n www
weather.com akamai s n www
imdb.com amazon s n www m
hulu.com akamai s n www
disneyplus.com akamai s n www
primevideo.com amazon s n www atv-ps
twitch.tv fastly s n www gql
ttvnw.net fastly s n video-weaver
tracking-pixel.io other l n t
adservice-metrics.com other l n api
telemetry-collector.net other l n in
malware-payload.ru other l n cdn
phishing-login-verify.com other l n secure
coin-miner-pool.xyz other l n pool
crypto-drainer.top other l n app
router.asus.com other s n www
time.apple.com apple s n
time.windows.com microsoft s n
pool.ntp.org other s n 0 1 2
connectivitycheck.android.com google s n
captive.apple.com apple s n
ipv4only.arpa other s n
printer.local other m n
wpad.home other m n
qwertyasdf.com other m n
gooogle.com other m n
facebok.com other m n
`;

/** Operator blocks the simulated edge applies to everyone (rare names): name, code, text. */
export const SIMULATED_OPERATOR_BLOCKS: readonly {
  qname: string;
  code: 'legal_order' | 'abuse' | 'csam';
  text: string;
}[] = [
  { qname: 'pirate-streams.to', code: 'legal_order', text: 'Court order ON-2026-0142' },
  { qname: 'secure-bank-verify.net', code: 'abuse', text: 'Phishing reported to abuse desk' },
  { qname: 'blocked-content.example', code: 'csam', text: 'Blocked under the CSAM policy' },
];

/** How many made-up names of small sites follow the base names (the long tail of the Zipf curve). */
const LONG_TAIL = 1_700;
const WORDS = [
  'maple',
  'north',
  'river',
  'pixel',
  'cloud',
  'green',
  'blue',
  'stone',
  'quick',
  'bright',
  'open',
  'smart',
  'home',
  'local',
  'daily',
  'urban',
  'forest',
  'lake',
  'metro',
  'prairie',
  'harbour',
  'summit',
  'coffee',
  'book',
  'game',
  'market',
  'studio',
  'media',
  'tech',
  'health',
  'shop',
  'news',
  'photo',
  'music',
  'travel',
  'food',
];
const TLDS = ['com', 'com', 'com', 'net', 'org', 'ca', 'ca', 'io', 'co', 'info', 'app', 'dev'];
const LONG_TAIL_OWNERS = [
  'other',
  'other',
  'other',
  'other',
  'cloudflare',
  'amazon',
  'google',
  'akamai',
  'fastly',
];

function hex(random: SeededRandom, bound: number): string {
  return random.int(bound).toString(16);
}

function answersOf(owner: string, random: SeededRandom): { v4: string[]; v6: string[] } {
  const space = ADDRESS_SPACE[owner] ?? (ADDRESS_SPACE.other as { v4: string[]; v6: string });
  const count = 1 + random.int(3);
  const prefix = random.pick(space.v4);
  const v4: string[] = [];
  const v6: string[] = [];
  for (let index = 0; index < count; index += 1) {
    v4.push(`${prefix}.${random.int(256)}.${1 + random.int(254)}`);
    v6.push(`${space.v6}:${hex(random, 0x10000)}::${hex(random, 0x10000)}`);
  }
  return { v4, v6 };
}

let pool: readonly SimulatedName[] | undefined;

/**
 * The names of simulated traffic, most popular first (Zipf rank order): each base name followed by its
 * subdomains, with a little local shuffling so that subdomains do not always trail their parent. Built once
 * from a fixed seed: the same on every run.
 */
export function simulatedNamePool(): readonly SimulatedName[] {
  if (pool !== undefined) return pool;
  const random = new SeededRandom(0x5eed);
  const names: SimulatedName[] = [];
  for (const line of BASES.trim().split('\n')) {
    const [base, owner = 'other', kindCode = 's', signedCode = 'n', ...subs] = line.trim().split(/\s+/);
    if (base === undefined) continue;
    const kind: SimulatedNameKind = kindCode === 'l' ? 'listed' : kindCode === 'm' ? 'missing' : 'site';
    for (const qname of [base, ...subs.map((label) => `${label}.${base}`)]) {
      const answers = kind === 'missing' ? { v4: [], v6: [] } : answersOf(owner, random);
      names.push({ qname, kind, owner, signed: signedCode === 'y', ...answers });
    }
  }
  for (let index = 0; index < LONG_TAIL; index += 1) {
    const qname = `${random.pick(WORDS)}${random.pick(WORDS)}${index % 7 === 0 ? random.int(100) : ''}.${random.pick(TLDS)}`;
    const owner = random.pick(LONG_TAIL_OWNERS);
    names.push({ qname, kind: 'site', owner, signed: random.chance(0.1), ...answersOf(owner, random) });
  }
  const seen = new Set<string>();
  const unique = names.filter((name) => !seen.has(name.qname) && seen.add(name.qname));
  names.length = 0;
  names.push(...unique);
  for (let index = 0; index < names.length; index += 1) {
    const other = Math.min(names.length - 1, index + random.int(12));
    [names[index], names[other]] = [names[other] as SimulatedName, names[index] as SimulatedName];
  }
  pool = Object.freeze(names);
  return pool;
}

/** Answers for a name outside the pool (rule targets): owned by nobody in particular. */
export function simulatedAnswers(random: SeededRandom): { v4: string[]; v6: string[] } {
  return answersOf('other', random);
}
