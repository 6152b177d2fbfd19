import { parseXmlPlist, plistlibLoads } from '@svc/testing/plist';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../support/accounts.js';
import { type ApiHarness, startApi } from '../support/api-harness.js';
import { problemOf, send } from '../support/http.js';

interface ProfileBody {
  id: string;
  endpoints: { doh: string; dot: string; dot_device: string; doq: string; ipv6: string[]; ipv4: string[] };
}

interface SetupBody {
  profile_id: string;
  doh: string;
  dot: string;
  doq: string;
  ipv6: string[];
  ipv4: string[];
  apple: { configuration_profile: string; doh: string };
  android: { private_dns_host: string };
  windows: { servers: string[]; doh_template: string };
  linux: { resolved_conf: string };
  routers: { plain_dns_servers: string[] };
  browsers: { doh: string };
  linked_ip: { servers: string[]; linked_ips: string; steps: string[] };
}

describe('profile setup through HTTP on memory (ROUTES.md setup rows, spec 1.5, 4.13)', () => {
  let api: ApiHarness;
  let owner: TestAccount;
  let stranger: TestAccount;
  let writeOnly: TestAccount;
  let profile: ProfileBody;

  beforeAll(async () => {
    api = await startApi('memory');
    owner = await createAccount(api);
    stranger = await createAccount(api);
    writeOnly = await createAccount(api, ['profiles:write']);
    const created = await send(`${api.url}/v1/profiles`, {
      method: 'POST',
      headers: owner.auth,
      body: { name: 'Home <&> office' },
    });
    expect(created.status).toBe(201);
    profile = created.json as ProfileBody;
  }, 60_000);
  afterAll(async () => {
    await api?.close();
  });

  it('GET /v1/profiles/{id}/setup answers the profile’s endpoints with per-platform values', async () => {
    const answer = await send(`${api.url}/v1/profiles/${profile.id}/setup`, { headers: owner.auth });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    const setup = answer.json as SetupBody;
    const { doh, dot, doq, ipv6, ipv4 } = profile.endpoints;
    expect(setup).toMatchObject({ profile_id: profile.id, doh, dot, doq, ipv6, ipv4 });
    expect(setup.apple).toMatchObject({
      configuration_profile: `${api.url}/v1/profiles/${profile.id}/setup/apple`,
      doh,
    });
    // The absolute URL is one a client fetches as it is, with its credential.
    const download = await send(setup.apple.configuration_profile, { headers: owner.auth });
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toMatch(/^application\/x-apple-aspen-config/);
    expect(setup.android.private_dns_host).toBe(dot);
    expect(setup.windows).toEqual(
      expect.objectContaining({ servers: [...ipv6, ...ipv4], doh_template: doh }),
    );
    expect(setup.linux.resolved_conf).toContain(`#${dot}`);
    expect(setup.linux.resolved_conf).toContain('DNSOverTLS=yes');
    expect(setup.routers.plain_dns_servers).toEqual(ipv4);
    expect(setup.browsers.doh).toBe(doh);
    expect(setup.linked_ip).toMatchObject({
      servers: ipv4,
      linked_ips: `/v1/profiles/${profile.id}/linked-ips`,
    });
  });

  it('GET /v1/profiles/{id}/setup/apple downloads a .mobileconfig pointing at the profile’s DoH URL', async () => {
    const answer = await send(`${api.url}/v1/profiles/${profile.id}/setup/apple`, { headers: owner.auth });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/x-apple-aspen-config(;|$)/);
    expect(answer.headers['content-disposition']).toBe(
      `attachment; filename="svc-${profile.id}.mobileconfig"`,
    );
    const root = plistlibLoads(answer.text) as Record<string, unknown>;
    expect(parseXmlPlist(answer.text)).toEqual(root);
    expect(root).toMatchObject({ PayloadType: 'Configuration', PayloadVersion: 1 });
    expect(String(root.PayloadDisplayName)).toContain('Home <&> office');
    const content = root.PayloadContent as { PayloadType: string; DNSSettings: Record<string, unknown> }[];
    expect(content.map((payload) => payload.PayloadType)).toEqual(['com.apple.dnsSettings.managed']);
    expect(content[0]?.DNSSettings).toEqual({
      DNSProtocol: 'HTTPS',
      ServerURL: profile.endpoints.doh,
      ServerAddresses: [...profile.endpoints.ipv6, ...profile.endpoints.ipv4],
    });
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(root.PayloadUUID).toMatch(uuid);
    expect((content[0] as unknown as { PayloadUUID: string }).PayloadUUID).toMatch(uuid);
    expect((content[0] as unknown as { PayloadUUID: string }).PayloadUUID).not.toBe(root.PayloadUUID);
  });

  it('answers the same profile on every download, so reinstalling replaces the installed one', async () => {
    const first = await send(`${api.url}/v1/profiles/${profile.id}/setup/apple`, { headers: owner.auth });
    const second = await send(`${api.url}/v1/profiles/${profile.id}/setup/apple`, {
      headers: { cookie: `svc_session=${owner.cookie}` },
    });
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
  });

  it('answers 404 for another organisation’s profile on both routes', async () => {
    for (const path of ['setup', 'setup/apple']) {
      const answer = await send(`${api.url}/v1/profiles/${profile.id}/${path}`, { headers: stranger.auth });
      expect(answer.status, path).toBe(404);
      expect(problemOf(answer).code).toBe('not_found');
    }
  });

  it('answers 403 to a token without profiles:read', async () => {
    for (const path of ['setup', 'setup/apple']) {
      const answer = await send(`${api.url}/v1/profiles/${profile.id}/${path}`, { headers: writeOnly.auth });
      expect(answer.status, path).toBe(403);
      expect(problemOf(answer).code).toBe('insufficient_scope');
    }
  });

  it('answers 401 without a credential and 422 for a malformed id', async () => {
    expect((await send(`${api.url}/v1/profiles/${profile.id}/setup`)).status).toBe(401);
    const malformed = await send(`${api.url}/v1/profiles/NOT-AN-ID/setup/apple`, { headers: owner.auth });
    expect(malformed.status).toBe(422);
  });
});
