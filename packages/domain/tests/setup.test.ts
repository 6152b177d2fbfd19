import {
  APPLE_CONFIGURATION_MEDIA_TYPE,
  appleConfigurationProfile,
  escapeXmlText,
  ParentalSettings,
  Profile,
  ProfileSettings,
  profileEndpoints,
  SecuritySettings,
  Setup,
  setupInstructions,
} from '@svc/domain';
import { type PlistJson, parseXmlPlist, plistlibLoads } from '@svc/testing/plist';
import { describe, expect, it } from 'vitest';

const resolver = {
  domain: 'dns.example.test',
  ipv6Prefixes: ['2001:db8:100::', '2001:db8:200::'],
  ipv4Anycast: ['192.0.2.10', '198.51.100.10'],
};

function profileNamed(name: string, id = 'abc123'): Profile {
  return Profile.parse({
    id,
    name,
    version: 3,
    security: SecuritySettings.parse({}),
    parental: ParentalSettings.parse({}),
    settings: ProfileSettings.parse({}),
    endpoints: profileEndpoints(id, resolver),
    suspended: false,
    paused_until: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-02T00:00:00.000Z',
  });
}

const options = {
  payloadUuid: '11111111-1111-4111-8111-111111111111',
  contentUuid: '22222222-2222-4222-8222-222222222222',
  organisation: 'dns.example.test',
};

function asDict(value: PlistJson | undefined): Record<string, PlistJson> {
  if (value === undefined || typeof value !== 'object' || Array.isArray(value))
    throw new Error(`expected a dict, got ${JSON.stringify(value)}`);
  return value;
}

function asArray(value: PlistJson | undefined): PlistJson[] {
  if (!Array.isArray(value)) throw new Error(`expected an array, got ${JSON.stringify(value)}`);
  return value;
}

describe(setupInstructions.name, () => {
  const profile = profileNamed('Home');
  const setup = setupInstructions(profile, 'https://api.example.test/');
  const { doh, dot, dot_device: dotDevice, doq, ipv6, ipv4 } = profile.endpoints;

  it('matches its published schema', () => {
    expect(Setup.parse(setup)).toEqual(setup);
  });

  it('carries the profile’s endpoints unchanged', () => {
    expect(setup).toMatchObject({ profile_id: 'abc123', doh, dot, dot_device: dotDevice, doq, ipv6, ipv4 });
    expect(doh).toBe('https://dns.example.test/abc123');
    expect(ipv6).toEqual(['2001:db8:100::6162:6331:3233', '2001:db8:200::6162:6331:3233']);
  });

  it('gives each platform the value it takes', () => {
    expect(setup.apple).toMatchObject({
      configuration_profile: 'https://api.example.test/v1/profiles/abc123/setup/apple',
      doh,
    });
    expect(setup.apple.steps[0]).toContain('https://api.example.test/v1/profiles/abc123/setup/apple');
    expect(setup.android).toMatchObject({ private_dns_host: dot, private_dns_device_host: dotDevice });
    expect(setup.android.steps.join(' ')).toContain('Android 9');
    expect(setup.windows).toMatchObject({ servers: [...ipv6, ...ipv4], doh_template: doh });
    expect(setup.linux.resolved_conf).toBe(
      [
        '[Resolve]',
        `DNS=${[...ipv6, ...ipv4].map((address) => `${address}#abc123.dns.example.test`).join(' ')}`,
        'DNSOverTLS=yes',
      ].join('\n'),
    );
    expect(setup.routers).toMatchObject({ dot, doh, plain_dns_servers: ipv4 });
    expect(setup.routers.steps.join(' ')).toMatch(/DDNS/);
    expect(setup.browsers.doh).toBe(doh);
    for (const browser of ['Chrome', 'Firefox', 'Edge'])
      expect(setup.browsers.steps.join(' ')).toContain(browser);
  });

  it('explains plain DNS through a linked IPv4 address and DDNS (spec 1.5)', () => {
    expect(setup.linked_ip).toMatchObject({ servers: ipv4, linked_ips: '/v1/profiles/abc123/linked-ips' });
    const steps = setup.linked_ip.steps.join(' ');
    expect(steps).toContain('Do53');
    expect(steps).toContain('/v1/profiles/abc123/linked-ips');
    expect(steps).toMatch(/DDNS.*update URL/);
    expect(steps).toMatch(/proven.*pending.*proof_url/);
  });
});

describe(escapeXmlText.name, () => {
  it('escapes markup and replaces characters XML 1.0 cannot hold', () => {
    expect(escapeXmlText('a<b>&c')).toBe('a&lt;b&gt;&amp;c');
    expect(escapeXmlText('x\u0001y\uFFFEz')).toBe('x\uFFFDy\uFFFDz');
    expect(escapeXmlText('tab\tline\nemoji 😀 é')).toBe('tab\tline\nemoji 😀 é');
  });
});

describe(appleConfigurationProfile.name, () => {
  const profile = profileNamed('Kids <&> "Tablet"');
  const xml = appleConfigurationProfile(profile, options);

  it('is served as an Apple configuration profile', () => {
    expect(APPLE_CONFIGURATION_MEDIA_TYPE).toBe('application/x-apple-aspen-config');
  });

  it('is an XML plist with the Apple prolog', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC')).toBe(true);
    expect(xml).toContain('<plist version="1.0">\n<dict>');
    expect(xml.trimEnd().endsWith('</plist>')).toBe(true);
  });

  it('escapes <, & and > in names', () => {
    expect(xml).toContain('Kids &lt;&amp;&gt; "Tablet"');
    expect(xml).not.toContain('Kids <&>');
  });

  it('holds a Configuration payload with exactly one DNSSettings payload for DoH', () => {
    const root = asDict(parseXmlPlist(xml));
    expect(root).toMatchObject({
      PayloadType: 'Configuration',
      PayloadVersion: 1,
      PayloadIdentifier: 'test.example.dns.profile.abc123',
      PayloadUUID: options.payloadUuid,
      PayloadOrganization: 'dns.example.test',
      PayloadRemovalDisallowed: false,
    });
    expect(root.PayloadDisplayName).toContain('Kids <&> "Tablet"');
    expect(typeof root.PayloadDescription).toBe('string');
    const content = asArray(root.PayloadContent);
    expect(content).toHaveLength(1);
    const dns = asDict(content[0]);
    expect(dns).toMatchObject({
      PayloadType: 'com.apple.dnsSettings.managed',
      PayloadVersion: 1,
      PayloadIdentifier: 'test.example.dns.profile.abc123.dns-settings',
      PayloadUUID: options.contentUuid,
    });
    expect(dns.DNSSettings).toEqual({
      DNSProtocol: 'HTTPS',
      ServerURL: 'https://dns.example.test/abc123',
      ServerAddresses: [...profile.endpoints.ipv6, ...profile.endpoints.ipv4],
    });
  });

  it('round-trips through Python’s plistlib to the same values', () => {
    expect(plistlibLoads(xml)).toEqual(parseXmlPlist(xml));
    const root = asDict(plistlibLoads(xml));
    const settings = asArray(root.PayloadContent).map((payload) => asDict(payload).DNSSettings);
    expect(settings).toHaveLength(1);
    expect(asDict(settings[0])).toMatchObject({
      DNSProtocol: 'HTTPS',
      ServerURL: profile.endpoints.doh,
    });
  });

  it('keeps a name with control characters and astral characters a well-formed plist', () => {
    const odd = appleConfigurationProfile(profileNamed('a\u0007b 😀 ]]> </string>'), options);
    const root = asDict(plistlibLoads(odd));
    expect(root.PayloadDisplayName).toContain('a\uFFFDb 😀 ]]> </string>');
  });

  it('is the same document for the same profile and UUIDs (nothing random inside)', () => {
    expect(appleConfigurationProfile(profile, options)).toBe(xml);
  });
});
