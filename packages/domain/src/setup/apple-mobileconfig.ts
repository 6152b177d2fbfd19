import type { Profile } from '../profiles/profile.schemas.js';

/** What the caller supplies: the domain draws no randomness, so the payload UUIDs come from outside. */
export interface AppleConfigurationOptions {
  /** PayloadUUID of the top-level Configuration payload. */
  payloadUuid: string;
  /** PayloadUUID of the DNS settings payload inside it. */
  contentUuid: string;
  /** PayloadOrganization, shown by the device while installing. */
  organisation: string;
}

/** The plist values a configuration profile uses. */
type PlistValue = string | number | boolean | readonly PlistValue[] | { readonly [key: string]: PlistValue };

/** Media type of a configuration profile download. */
export const APPLE_CONFIGURATION_MEDIA_TYPE = 'application/x-apple-aspen-config';

const XML_HEADER = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
].join('\n');

/** Characters XML 1.0 cannot hold at all, not even as references (controls, lone surrogates, U+FFFE/FFFF). */
const NOT_XML_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text content of an element: markup characters escaped, characters XML cannot carry replaced by U+FFFD. */
export function escapeXmlText(text: string): string {
  return text
    .replace(NOT_XML_CHARACTER, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#13;');
}

function plistLines(value: PlistValue, indent: string): string[] {
  if (typeof value === 'string') return [`${indent}<string>${escapeXmlText(value)}</string>`];
  if (typeof value === 'boolean') return [`${indent}<${value ? 'true' : 'false'}/>`];
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`plist integer expected, got ${value}`);
    return [`${indent}<integer>${value}</integer>`];
  }
  const inner = `${indent}\t`;
  if (Array.isArray(value)) {
    return [`${indent}<array>`, ...value.flatMap((item) => plistLines(item, inner)), `${indent}</array>`];
  }
  return [
    `${indent}<dict>`,
    ...Object.entries(value).flatMap(([key, item]) => [
      `${inner}<key>${escapeXmlText(key)}</key>`,
      ...plistLines(item, inner),
    ]),
    `${indent}</dict>`,
  ];
}

/** `dns.example.com` → `com.example.dns`: Apple asks for reverse-DNS payload identifiers. */
function reverseDns(host: string): string {
  return host.split('.').filter(Boolean).reverse().join('.');
}

/**
 * An Apple configuration profile (`.mobileconfig`, XML plist) that points iOS 14+ and macOS 11+ at the profile's
 * DoH URL through one `com.apple.dnsSettings.managed` payload. The identifiers are derived from the resolver
 * domain and the profile id, so installing a newer download replaces the older one instead of adding a second.
 * The resolver addresses are included so the device need not resolve the DoH host through the DNS it replaces.
 */
export function appleConfigurationProfile(profile: Profile, options: AppleConfigurationOptions): string {
  const { doh, ipv6, ipv4 } = profile.endpoints;
  const identifier = `${reverseDns(new URL(doh).hostname)}.profile.${profile.id}`;
  const serverAddresses = [...ipv6, ...ipv4];
  const dnsSettings: Record<string, PlistValue> = {
    DNSProtocol: 'HTTPS',
    ServerURL: doh,
    ...(serverAddresses.length > 0 ? { ServerAddresses: serverAddresses } : {}),
  };
  const configuration: Record<string, PlistValue> = {
    PayloadContent: [
      {
        DNSSettings: dnsSettings,
        PayloadDescription: `Sends DNS queries over HTTPS to ${doh}.`,
        PayloadDisplayName: `${profile.name} (encrypted DNS)`,
        PayloadIdentifier: `${identifier}.dns-settings`,
        PayloadType: 'com.apple.dnsSettings.managed',
        PayloadUUID: options.contentUuid,
        PayloadVersion: 1,
      },
    ],
    PayloadDescription: `Filters this device's DNS through profile ${profile.name} (${profile.id}).`,
    PayloadDisplayName: `${profile.name} (${options.organisation})`,
    PayloadIdentifier: identifier,
    PayloadOrganization: options.organisation,
    PayloadRemovalDisallowed: false,
    PayloadType: 'Configuration',
    PayloadUUID: options.payloadUuid,
    PayloadVersion: 1,
  };
  return `${XML_HEADER}\n<plist version="1.0">\n${plistLines(configuration, '').join('\n')}\n</plist>\n`;
}
