import { expect, it } from 'vitest';
import { eventually } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';
import type { ProfilesFixture } from './profiles.fixture.js';

/** Creating a profile: defaults, kept fields, validation (spec 4.2). */
export function profileCreate(fx: ProfilesFixture): void {
  const { create, documentsOf } = fx;
  it('creates a profile with the documented defaults, version 1 as ETag, Location and endpoints', async () => {
    const { answer, profile } = await create({ name: 'Home' });
    expect(profile.id).toMatch(/^[a-z0-9]{6}$/);
    expect(profile.id).not.toBe('000000');
    expect(answer.headers.etag).toBe('"1"');
    expect(answer.headers.location).toBe(`/v1/profiles/${profile.id}`);
    expect(profile).toMatchObject({ name: 'Home', version: 1, suspended: false });
    expect(profile.settings).toEqual({
      block_mode: 'nxdomain',
      logs_enabled: true,
      log_client_ip: true,
      log_domains: true,
      log_destination: 'cloud',
      retention_days: 30,
      cname_uncloak: true,
      cache_boost_ttl: 0,
      ecs: 'off',
      node_queue_hours: 0,
      log_region: 'ca',
      time_zone: 'UTC',
    });
    expect(Object.keys(profile.security).sort()).toEqual([
      'cryptojacking',
      'csam',
      'dga',
      'idn_homograph',
      'nrd',
      'rebinding',
      'threat_intel',
      'typosquat',
    ]);
    expect(profile.parental).toEqual({
      categories: [],
      services: [],
      safe_search: false,
      youtube_restricted: false,
    });
    expect(profile.endpoints.doh).toBe(`https://dns.svc.example/${profile.id}`);
    expect(profile.endpoints.dot).toBe(`${profile.id}.dns.svc.example`);
    expect(profile.endpoints.dot_device).toBe(`<device>-${profile.id}.dns.svc.example`);
    expect(profile.endpoints.ipv6).toHaveLength(2);
    const hex = [...profile.id].map((char) => char.charCodeAt(0).toString(16).padStart(2, '0')).join('');
    const low = profile.endpoints.ipv6[0]
      ?.split('::')[1]
      ?.split(':')
      .map((group) => group.padStart(4, '0'))
      .join('');
    expect(low).toBe(hex);
    expect(profile.endpoints.ipv4).toEqual(['192.0.2.53', '198.51.100.53']);
    const documents = await eventually(
      async () => documentsOf(profile.id),
      (found) => found.length > 0,
    );
    expect(documents[0]).toMatchObject({ kind: 'profile', id: profile.id, version: 1, filtering: true });
  });

  it('keeps present fields and defaults the rest', async () => {
    const { profile } = await create({
      settings: { block_mode: 'refused', retention_days: 7 },
      security: { nrd: true },
    });
    expect(profile.settings).toMatchObject({
      block_mode: 'refused',
      retention_days: 7,
      log_destination: 'cloud',
    });
    expect(profile.security).toMatchObject({ nrd: true, threat_intel: true });
  });

  it.each([
    [{ settings: { block_mode: 'drop' } }, 'settings.block_mode', /nxdomain, refused, null, block-page/],
    [{ settings: { retention_days: 91 } }, 'settings.retention_days', /1 to 90/],
    [{ settings: { retention_days: 0 } }, 'settings.retention_days', /1 to 90/],
    [{ settings: { log_region: 'eu' } }, 'settings.log_region', /ca/],
    [{ settings: { node_queue_hours: 25 } }, 'settings.node_queue_hours', /0 to 24/],
    [{ settings: { ecs: 'partial' } }, 'settings.ecs', /off, anonymised, full/],
    [{ settings: { log_destination: 'disk' } }, 'settings.log_destination', /cloud, self-hosted, both, none/],
    [{ security: { csam: 'yes' } }, 'security.csam', /true or false/],
    [{ parental: { services: ['Not Valid'] } }, 'parental.services.0', /\^\[a-z0-9-\]\{1,64\}\$/],
    [{ name: '' }, 'name', /empty/],
  ])('refuses %j with 422 validation_failed naming %s', async (body, field, message) => {
    const answer = await send(`${fx.api.url}/v1/profiles`, { method: 'POST', headers: fx.owner.auth, body });
    expect(answer.status).toBe(422);
    const problem = problemOf(answer);
    expect(problem.code).toBe('validation_failed');
    const error = (problem.errors as { field: string; message: string }[]).find(
      (entry) => entry.field === field,
    );
    expect(error?.message).toMatch(message);
  });

  it('refuses unknown fields rather than ignoring them', async () => {
    const answer = await send(`${fx.api.url}/v1/profiles`, {
      method: 'POST',
      headers: fx.owner.auth,
      body: { settings: { blockmode: 'refused' } },
    });
    expect(answer.status).toBe(422);
  });
}
