import { z } from 'zod';
import type { Profile } from '../profiles/profile.schemas.js';

const Steps = z.array(z.string()).meta({ description: 'What to do, in order, with this profile’s values.' });

/** iOS, iPadOS and macOS: the configuration profile, or the DoH URL in an app that takes one. */
const AppleSetup = z.object({
  configuration_profile: z.string().meta({
    description:
      'Absolute URL of the `.mobileconfig` to download (GET with a credential, scope profiles:read).',
  }),
  doh: z.string().meta({ description: 'DNS-over-HTTPS URL, for apps that take one.' }),
  steps: Steps,
});

/** Android 9 and later: Private DNS takes the DoT host. */
const AndroidSetup = z.object({
  private_dns_host: z.string().meta({ description: 'Host name for Private DNS (DNS-over-TLS).' }),
  private_dns_device_host: z
    .string()
    .meta({ description: 'The same host naming a device: replace `<device>` with its name.' }),
  steps: Steps,
});

/** Windows 11: resolver addresses with the DoH template. */
const WindowsSetup = z.object({
  servers: z.array(z.string()).meta({ description: 'DNS server addresses, IPv6 first.' }),
  doh_template: z.string().meta({ description: 'DNS over HTTPS template for each of those addresses.' }),
  steps: Steps,
});

/** systemd-resolved with DNS-over-TLS. */
const LinuxSetup = z.object({
  resolved_conf: z
    .string()
    .meta({ description: 'Lines for `/etc/systemd/resolved.conf` (section [Resolve]).' }),
  steps: Steps,
});

/** Routers: encrypted DNS where the firmware has it, else plain DNS identified by a linked IP. */
const RouterSetup = z.object({
  dot: z.string().meta({ description: 'DNS-over-TLS host name.' }),
  doh: z.string().meta({ description: 'DNS-over-HTTPS URL.' }),
  plain_dns_servers: z
    .array(z.string())
    .meta({ description: 'Anycast IPv4 resolvers for plain DNS; they need a linked IP.' }),
  steps: Steps,
});

/** Browsers with their own secure DNS setting. */
const BrowserSetup = z.object({
  doh: z.string().meta({ description: 'Custom secure DNS provider (DNS-over-HTTPS URL).' }),
  steps: Steps,
});

/** Plain DNS (Do53): the network is recognised by its public IPv4 address. */
const LinkedIpSetup = z.object({
  servers: z.array(z.string()).meta({ description: 'Anycast IPv4 resolvers to point plain DNS at.' }),
  linked_ips: z.string().meta({ description: 'Path listing and linking the profile’s IPv4 addresses.' }),
  steps: Steps,
});

/** GET /v1/profiles/{id}/setup: how to point each kind of device at the profile (ROUTES.md). */
export const Setup = z
  .object({
    profile_id: z.string().meta({ description: 'The profile these values reach.' }),
    doh: z.string().meta({ description: 'DNS-over-HTTPS URL.' }),
    dot: z.string().meta({ description: 'DNS-over-TLS host name.' }),
    dot_device: z.string().meta({ description: 'DoT host naming a device: replace `<device>`.' }),
    doq: z.string().meta({ description: 'DNS-over-QUIC address.' }),
    ipv6: z.array(z.string()).meta({ description: 'IPv6 resolvers encoding the profile id.' }),
    ipv4: z
      .array(z.string())
      .meta({ description: 'Anycast IPv4 resolvers; plain DNS to them needs a linked IP.' }),
    apple: AppleSetup,
    android: AndroidSetup,
    windows: WindowsSetup,
    linux: LinuxSetup,
    routers: RouterSetup,
    browsers: BrowserSetup,
    linked_ip: LinkedIpSetup,
  })
  .meta({ id: 'ProfileSetup' });
export type Setup = z.infer<typeof Setup>;

/**
 * Setup values for every platform, built only from the profile's endpoints (and the API's `baseUrl`, where the
 * configuration profile is downloaded) so that they can never disagree with
 * GET /v1/profiles/{id}. Encrypted transports carry the profile in the name or URL; plain DNS cannot, which is
 * why every fallback points at linked IPs (spec 1.5).
 */
export function setupInstructions(profile: Profile, baseUrl: string): Setup {
  const { id, endpoints } = profile;
  const configurationProfile = `${baseUrl.replace(/\/+$/, '')}/v1/profiles/${id}/setup/apple`;
  const { doh, dot, dot_device: dotDevice, doq, ipv6, ipv4 } = endpoints;
  const linkedIps = `/v1/profiles/${id}/linked-ips`;
  const plainServers = ipv4.join(', ');
  const resolvedConf = [
    '[Resolve]',
    `DNS=${[...ipv6, ...ipv4].map((address) => `${address}#${dot}`).join(' ')}`,
    'DNSOverTLS=yes',
  ].join('\n');

  return {
    profile_id: id,
    doh,
    dot,
    dot_device: dotDevice,
    doq,
    ipv6: [...ipv6],
    ipv4: [...ipv4],
    apple: {
      configuration_profile: configurationProfile,
      doh,
      steps: [
        `Download the configuration profile from ${configurationProfile} (iOS 14, macOS 11 or later).`,
        'Open it and install it in Settings (iOS, iPadOS) or System Settings (macOS).',
        `Apps that take a DoH URL can use ${doh} instead.`,
      ],
    },
    android: {
      private_dns_host: dot,
      private_dns_device_host: dotDevice,
      steps: [
        'Android 9 or later: open Settings, Network & internet, Private DNS (menus vary by maker).',
        `Choose "Private DNS provider hostname" and enter ${dot}.`,
        `To name the device in logs, enter ${dotDevice} with <device> replaced by its name.`,
      ],
    },
    windows: {
      servers: [...ipv6, ...ipv4],
      doh_template: doh,
      steps: [
        'Windows 11: open Settings, Network & internet, the connection, DNS server assignment, Edit, Manual.',
        `Enter the DNS servers ${[...ipv6, ...ipv4].join(', ')}.`,
        `For each, set DNS over HTTPS to "On (manual template)" with the template ${doh}.`,
      ],
    },
    linux: {
      resolved_conf: resolvedConf,
      steps: [
        'systemd-resolved: put these lines in /etc/systemd/resolved.conf.',
        'Restart it with `systemctl restart systemd-resolved`.',
      ],
    },
    routers: {
      dot,
      doh,
      plain_dns_servers: [...ipv4],
      steps: [
        `If the router supports DNS-over-TLS, use the host ${dot}; if it supports DNS-over-HTTPS, use ${doh}.`,
        `Otherwise set its DNS servers to ${plainServers} and link the network's public IPv4 address (see linked_ip).`,
        'Have the router call the linked IP’s DDNS update URL (with a dynamic public address, at every change): the call proves the address the router’s traffic comes from.',
      ],
    },
    browsers: {
      doh,
      steps: [
        `Chrome and Edge: turn on "Use secure DNS" and choose a custom provider: ${doh}.`,
        `Firefox: turn on DNS over HTTPS with a custom provider: ${doh}.`,
      ],
    },
    linked_ip: {
      servers: [...ipv4],
      linked_ips: linkedIps,
      steps: [
        'Plain DNS (Do53) clients are identified by a linked IPv4 address: the public address their queries come from.',
        `Link it with POST ${linkedIps} {"ip": "<address>"} sent from that network, then point the device or router at ${plainServers}.`,
        'The address must be proven: a link sent from it is active at once; one sent from elsewhere stays pending (published to no resolver) until its proof_url is called from the network within 24 hours.',
        `For a router, or a dynamic address, create a DDNS slot with POST ${linkedIps} {"ddns": true} and have the router call its update URL (GET ${linkedIps}/{linkId}/ddns) whenever the address changes: each call proves the address it comes from.`,
      ],
    },
  };
}
