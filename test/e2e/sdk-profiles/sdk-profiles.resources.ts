import { PARENTAL_SERVICES } from '@svc/domain';
import { createClient, isApiError, type Profile } from '@svc/sdk';
import { expect, it } from 'vitest';
import { failureOf, type SdkProfilesFixture, tokenClient } from './sdk-profiles.fixture.js';

/** Profiles, their rules and lists, linked IPs, setup and the catalogues through the SDK (spec 4.2–4.4, 4.7, 4.13). */
export function sdkProfileResources(fx: SdkProfilesFixture): void {
  it('creates, reads, updates with If-Match and deletes a profile (spec 4.2, 4.1.4)', async () => {
    const client = await tokenClient(fx.app);
    const created = await client.profiles.create({ name: 'Home' }).withResponse();
    expect(created.status).toBe(201);
    const profile: Profile = created.data;
    expect(profile).toMatchObject({ name: 'Home', suspended: false });
    expect(profile.id).toMatch(/^[a-z0-9]{6}$/);
    expect(created.etag).toBe(`"${profile.version}"`);
    expect(created.version).toBe(profile.version);
    expect(created.headers.location).toBe(`/v1/profiles/${profile.id}`);

    expect(await client.profiles.get(profile.id)).toEqual(profile);
    expect((await client.profiles.list({ limit: 1 }).toArray()).map((each) => each.id)).toEqual([profile.id]);

    const renamed = await client.profiles.update(
      profile.id,
      { name: 'Home network', settings: { retention_days: 7 } },
      { ifMatch: profile.version },
    );
    expect(renamed).toMatchObject({ name: 'Home network', version: profile.version + 1 });
    expect(renamed.settings.retention_days).toBe(7);
    expect(renamed.security).toEqual(profile.security);

    const stale = await failureOf(
      client.profiles.update(profile.id, { name: 'Lost' }, { ifMatch: profile.version }),
    );
    expect(stale.status).toBe(412);
    expect(stale.code).toBe('version_mismatch');
    expect(stale.is('version_mismatch')).toBe(true);
    expect(stale.isConflict).toBe(true);
    expect(isApiError(stale, 'version_mismatch')).toBe(true);
    expect((await client.profiles.get(profile.id)).name).toBe('Home network');

    // The ETag text of an answer works as well as the version number.
    const { etag } = await client.profiles.get(profile.id).withResponse();
    expect(etag).toBe(`"${renamed.version}"`);
    const viaEtag = await client.profiles.update(
      profile.id,
      { parental: { safe_search: true } },
      { ifMatch: etag },
    );
    expect(viaEtag.parental.safe_search).toBe(true);

    expect((await failureOf(client.profiles.delete(profile.id, { ifMatch: renamed.version }))).code).toBe(
      'version_mismatch',
    );
    await client.profiles.delete(profile.id, { ifMatch: viaEtag.version });
    const gone = await failureOf(client.profiles.get(profile.id));
    expect(gone.status).toBe(404);
    expect(gone.code).toBe('not_found');
    expect(gone.isNotFound).toBe(true);
    // A failure read through withResponse() rejects there, and leaves no unhandled rejection behind.
    await expect(client.profiles.get(profile.id).withResponse()).rejects.toMatchObject({ code: 'not_found' });
  });

  it('answers a repeated create with one idempotency key with the first profile (spec 4.1.5)', async () => {
    const client = await tokenClient(fx.app);
    const first = await client.profiles.create({}, { idempotencyKey: 'sdk-profile-create-1' });
    const again = await client.profiles.create({}, { idempotencyKey: 'sdk-profile-create-1' });
    expect(again.id).toBe(first.id);
    expect(await client.profiles.list().toArray()).toHaveLength(1);
  });

  it('replaces rules and lists, each answer carrying the profile ETag', async () => {
    const client = await tokenClient(fx.app);
    const profile = await client.profiles.create({ name: 'Rules' });
    const rules = await client.profiles.rules
      .replace(
        profile.id,
        { deny: ['Ads.Example.com', 'ads.example.com.'], allow: ['=ok.example.com'] },
        { ifMatch: profile.version },
      )
      .withResponse();
    expect(rules.data).toEqual({ deny: ['ads.example.com'], allow: ['=ok.example.com'], rewrites: [] });
    expect(rules.version).toBe(profile.version + 1);
    const read = await client.profiles.rules.get(profile.id).withResponse();
    expect(read.data).toEqual(rules.data);
    expect(read.etag).toBe(rules.etag);

    const staleRules = await failureOf(
      client.profiles.rules.replace(profile.id, {}, { ifMatch: profile.version }),
    );
    expect(staleRules.code).toBe('version_mismatch');

    const catalogue = await client.catalogue.lists();
    const listIds = catalogue.lists.slice(0, 2).map((list) => list.id);
    expect(listIds).toHaveLength(2);
    expect(await client.profiles.lists.replace(profile.id, listIds, { ifMatch: read.etag })).toEqual(listIds);
    const lists = await client.profiles.lists.get(profile.id).withResponse();
    expect(lists.data).toEqual(listIds);
    expect(lists.version).toBe(profile.version + 2);
    const unknown = await failureOf(client.profiles.lists.replace(profile.id, [65_535]));
    expect(unknown.status).toBe(422);
    expect(unknown.code).toBe('unknown_list');
  });

  it('links IPs, reads, rotates and uses DDNS update URLs, and unlinks (spec 4.4)', async () => {
    // Linked from the network itself: the address is proven.
    const client = await tokenClient(fx.app, '203.0.113.41');
    const profile = await client.profiles.create({ name: 'Linked' });
    const linked = await client.profiles.linkedIps.create(
      profile.id,
      { ip: '203.0.113.41' },
      { ifMatch: profile.version },
    );
    expect(linked).toMatchObject({ ip: '203.0.113.41', ddns: false, state: 'active' });
    expect((await client.profiles.get(profile.id)).version).toBe(profile.version + 1);
    const conflict = await failureOf(
      client.profiles.linkedIps.create((await client.profiles.create()).id, { ip: '203.0.113.41' }),
    );
    expect(conflict.status).toBe(409);
    expect(conflict.code).toBe('ip_conflict');
    // From elsewhere, the same address is only a claim, answered with its proof URL.
    const elsewhere = await tokenClient(fx.app);
    const claim = await elsewhere.profiles.linkedIps.create((await elsewhere.profiles.create()).id, {
      ip: '203.0.113.41',
    });
    expect(claim).toMatchObject({ ip: '203.0.113.41', state: 'pending' });
    expect(claim.proof_url).toMatch(/\/v1\/ddns\/[A-Za-z0-9_-]{43}$/);

    const slot = await client.profiles.linkedIps.create(profile.id, { ddns: true });
    expect(slot).toMatchObject({ ip: null, ddns: true });
    expect(await client.profiles.linkedIps.get(profile.id, slot.id)).toEqual(slot);
    const listed = await client.profiles.linkedIps.list(profile.id, { limit: 1 }).toArray();
    expect(listed.map((link) => link.id).sort()).toEqual([linked.id, slot.id].sort());

    const { update_url } = await client.profiles.linkedIps.ddnsUrl(profile.id, slot.id);
    expect(update_url).toMatch(/\/v1\/ddns\/[A-Za-z0-9_-]+$/);
    // The update goes without a credential: a client with none sets the slot to its own public address.
    const loopback = await failureOf(createClient({ baseUrl: fx.app.url }).ddns.update(update_url));
    expect(loopback.status).toBe(422);
    expect(loopback.fieldErrors.map((error) => error.field)).toEqual(['ip']);
    const router = createClient({
      baseUrl: fx.app.url,
      fetch: (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set('x-forwarded-for', '198.51.100.77');
        return fetch(input, { ...init, headers });
      },
    });
    expect(await router.ddns.update(update_url)).toEqual({ ip: '198.51.100.77', changed: true });
    const token = update_url.split('/').pop() ?? '';
    expect(await router.ddns.update(token)).toEqual({ ip: '198.51.100.77', changed: false });
    expect((await client.profiles.linkedIps.get(profile.id, slot.id)).ip).toBe('198.51.100.77');

    const rotated = await client.profiles.linkedIps.rotateDdns(profile.id, slot.id);
    expect(rotated.update_url).not.toBe(update_url);
    expect((await failureOf(router.ddns.update(update_url))).code).toBe('not_found');
    expect(await router.ddns.update(rotated.update_url)).toEqual({ ip: '198.51.100.77', changed: false });

    const current = await client.profiles.get(profile.id);
    await client.profiles.linkedIps.delete(profile.id, slot.id, { ifMatch: current.version });
    await client.profiles.linkedIps.delete(profile.id, linked.id);
    expect(await client.profiles.linkedIps.list(profile.id).toArray()).toEqual([]);
    expect((await failureOf(client.profiles.linkedIps.get(profile.id, slot.id))).code).toBe('not_found');
  });

  it('reads setup values and the Apple configuration profile as text (spec 4.13)', async () => {
    const client = await tokenClient(fx.app);
    const profile = await client.profiles.create({ name: 'Setup' });
    const setup = await client.profiles.setup(profile.id);
    expect(setup.profile_id).toBe(profile.id);
    expect(setup.doh).toBe(profile.endpoints.doh);
    const plist = await client.profiles.appleConfiguration(profile.id);
    expect(typeof plist).toBe('string');
    expect(plist).toContain('<plist');
    expect(plist).toContain(profile.endpoints.doh);
    expect((await failureOf(client.profiles.appleConfiguration('zzzzzz'))).code).toBe('not_found');
  });

  it('reads the public catalogues, auto-paging parental services ten at a time (spec 4.7)', async () => {
    const anonymous = createClient({ baseUrl: fx.app.url });
    expect((await anonymous.catalogue.lists()).lists.length).toBeGreaterThan(0);
    const services = await anonymous.catalogue.parentalServices({ limit: 10 }).toArray();
    expect(PARENTAL_SERVICES.length).toBeGreaterThan(10);
    expect(services.map((service) => service.id)).toEqual(PARENTAL_SERVICES.map((service) => service.id));
    const categories = await anonymous.catalogue.parentalCategories();
    expect(categories.categories.length).toBeGreaterThan(0);
  });
}
