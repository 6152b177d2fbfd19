import { DeviceSightings, PARENTAL_SERVICES } from '@svc/domain';
import { createTestApp, type TestApp } from '@svc/http-server';
import { ApiError, createClient, isApiError, type Profile, type SvcClient } from '@svc/sdk';
import { ManualClock } from '@svc/testing/clock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/api-harness.js';
import { totpCode } from '../support/totp.js';

const DASHBOARD = 'http://localhost:3000';
const PASSWORD = 'correct horse battery';
const STEP = 30_000;
/** A code that is certainly not `code`. */
const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

let sequence = 0;
/** A fresh address per test, so tests never depend on each other's accounts. */
function freshEmail(): string {
  sequence += 1;
  return `sdk-profiles${sequence}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/** The token of the first emailed link to `email` matching `pattern` (one capture group). */
async function emailedToken(app: TestApp, email: string, pattern: RegExp): Promise<string> {
  const found = await eventually(
    async () => app.mailer.to(email).flatMap((mail) => pattern.exec(mail.text)?.[1] ?? []),
    (tokens) => tokens.length > 0,
  );
  const token = found[0];
  if (token === undefined) throw new Error(`no link matching ${pattern} in mail to ${email}`);
  return decodeURIComponent(token);
}

/** What a rejected promise rejected with, to assert on an ApiError's fields. */
async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  const failure = await promise.then(
    () => new Error('expected the call to fail'),
    (error: unknown) => error,
  );
  if (!(failure instanceof ApiError)) throw failure;
  return failure;
}

/** Signs up, verifies from the emailed link and signs in through the SDK; the client keeps the session. */
async function signedIn(app: TestApp): Promise<{ session: SvcClient; email: string }> {
  const email = freshEmail();
  const session = createClient({ baseUrl: app.url, origin: DASHBOARD });
  await session.auth.signup({ email, password: PASSWORD });
  await session.auth.verify(await emailedToken(app, email, /verify-email\?token=([^\s"<]+)/));
  await session.auth.login({ email, password: PASSWORD });
  return { session, email };
}

/**
 * A client holding an API token with the profile scopes, as a script or CI job would use; `from` plays it on
 * a network with that public address (the API trusts the loopback proxy).
 */
async function tokenClient(app: TestApp, from?: string): Promise<SvcClient> {
  const { session } = await signedIn(app);
  const { secret } = await session.tokens.create({
    name: 'sdk-profiles',
    scopes: ['profiles:read', 'profiles:write'],
  });
  if (from === undefined) return createClient({ baseUrl: app.url, token: secret });
  return createClient({
    baseUrl: app.url,
    token: secret,
    fetch: (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('x-forwarded-for', from);
      return fetch(input, { ...init, headers });
    },
  });
}

describe('SDK profiles, linked IPs, setup, catalogues and second factors against the real server', () => {
  const clock = new ManualClock();
  let app: TestApp;
  beforeAll(async () => {
    // The proxy in front of the API is on loopback: X-Forwarded-For plays a router on the internet.
    app = await createTestApp({ clock, env: { SVC_TRUST_PROXY: 'loopback' } });
  });
  afterAll(async () => app.close());

  it('creates, reads, updates with If-Match and deletes a profile (spec 4.2, 4.1.4)', async () => {
    const client = await tokenClient(app);
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
    const client = await tokenClient(app);
    const first = await client.profiles.create({}, { idempotencyKey: 'sdk-profile-create-1' });
    const again = await client.profiles.create({}, { idempotencyKey: 'sdk-profile-create-1' });
    expect(again.id).toBe(first.id);
    expect(await client.profiles.list().toArray()).toHaveLength(1);
  });

  it('replaces rules and lists, each answer carrying the profile ETag', async () => {
    const client = await tokenClient(app);
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
    const client = await tokenClient(app, '203.0.113.41');
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
    const elsewhere = await tokenClient(app);
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
    const loopback = await failureOf(createClient({ baseUrl: app.url }).ddns.update(update_url));
    expect(loopback.status).toBe(422);
    expect(loopback.fieldErrors.map((error) => error.field)).toEqual(['ip']);
    const router = createClient({
      baseUrl: app.url,
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
    const client = await tokenClient(app);
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
    const anonymous = createClient({ baseUrl: app.url });
    expect((await anonymous.catalogue.lists()).lists.length).toBeGreaterThan(0);
    const services = await anonymous.catalogue.parentalServices({ limit: 10 }).toArray();
    expect(PARENTAL_SERVICES.length).toBeGreaterThan(10);
    expect(services.map((service) => service.id)).toEqual(PARENTAL_SERVICES.map((service) => service.id));
    const categories = await anonymous.catalogue.parentalCategories();
    expect(categories.categories.length).toBeGreaterThan(0);
  });

  it('lists, names and forgets devices a resolver saw (spec 4.3)', async () => {
    const client = await tokenClient(app);
    const profile = await client.profiles.create({ name: 'Devices' });
    const sightings = await app.container.getAsync<DeviceSightings>(DeviceSightings);
    await sightings.record([
      {
        profileId: profile.id,
        name: 'living-room-tv',
        identification: 'doh_path',
        transport: 'doh',
        seenAt: clock.now(),
      },
    ]);
    const [device] = await client.profiles.devices.list(profile.id).toArray();
    expect(device).toMatchObject({ id: 'living-room-tv', label: 'living-room-tv', kind: 'other' });
    const named = await client.profiles.devices.update(profile.id, 'living-room-tv', {
      display_name: 'TV',
      kind: 'tv',
    });
    expect(named).toMatchObject({ label: 'TV', kind: 'tv' });
    expect((await client.profiles.devices.get(profile.id, 'living-room-tv')).display_name).toBe('TV');
    expect((await client.profiles.get(profile.id)).version).toBe(profile.version);
    await client.profiles.devices.forget(profile.id, 'living-room-tv');
    expect((await failureOf(client.profiles.devices.forget(profile.id, 'nothing'))).code).toBe('not_found');
  });

  it('reports a domain a blocklist gets wrong and lists the reports (spec 4.5)', async () => {
    const client = await tokenClient(app);
    const profile = await client.profiles.create({ name: 'Reports' });
    const [list] = (await client.catalogue.lists()).lists;
    if (list === undefined) throw new Error('the blocklist catalogue is empty');
    const { id } = await client.profiles.listReports.create(profile.id, {
      domain: 'Ads.Example.com.',
      list_id: list.id,
      kind: 'false_positive',
    });
    const reports = await client.profiles.listReports.list(profile.id).toArray();
    expect(reports).toEqual([
      expect.objectContaining({ id, domain: 'ads.example.com', list_id: list.id, status: 'open' }),
    ]);
  });

  it('turns TOTP on and off and replaces recovery codes through the session (spec 5.4)', async () => {
    const { session, email } = await signedIn(app);
    const enrolment = await session.auth.totp.start();
    expect(enrolment.otpauth_uri).toContain(`secret=${enrolment.secret}`);
    const current = totpCode(enrolment.secret, clock.now());
    const wrong = await failureOf(session.auth.totp.confirm(otherThan(current)));
    expect(wrong.status).toBe(401);
    expect(wrong.code).toBe('invalid_second_factor');
    const enabled = await session.auth.totp.confirm(totpCode(enrolment.secret, clock.now()));
    expect(enabled.enabled).toBe(true);
    expect(enabled.recovery_codes).toHaveLength(10);
    expect(await session.auth.recoveryCodes.remaining()).toBe(10);
    const replaced = await session.auth.recoveryCodes.replace();
    expect(replaced).toHaveLength(10);
    expect(replaced).not.toEqual(enabled.recovery_codes);

    const required = await failureOf(
      createClient({ baseUrl: app.url }).auth.login({ email, password: PASSWORD }),
    );
    expect(required.code).toBe('second_factor_required');

    clock.advance(STEP);
    expect(await session.auth.totp.disable(totpCode(enrolment.secret, clock.now()))).toEqual({
      enabled: false,
    });
    const again = await failureOf(session.auth.totp.disable(totpCode(enrolment.secret, clock.now())));
    expect(again.code).toBe('totp_not_enabled');
    await createClient({ baseUrl: app.url }).auth.login({ email, password: PASSWORD });
  });

  it('recovers with the emailed link and a recovery code into a restricted session (spec 5.5.3)', async () => {
    const { session, email } = await signedIn(app);
    const { secret } = await session.auth.totp.start();
    const { recovery_codes: codes = [] } = await session.auth.totp.confirm(totpCode(secret, clock.now()));
    clock.advance(STEP);

    const stranger = createClient({ baseUrl: app.url });
    expect(await stranger.auth.recovery.request(email)).toEqual({ status: 'recovery_sent' });
    const token = await emailedToken(app, email, /recovery=(rec_[^\s"<]+)/);
    const wrong = await failureOf(stranger.auth.recovery.confirm({ token, recovery_code: 'aaaaa-bbbbb' }));
    expect(wrong.status).toBe(401);
    expect(wrong.code).toBe('invalid_recovery_code');
    // A wrong code is a failure on the account's sign-in ladder: the next try comes 100 ms later (issue 27).
    clock.advance(100);

    const account = await stranger.auth.recovery.confirm({ token, recovery_code: codes[0] ?? '' });
    expect(account.email).toBe(email);
    expect(stranger.sessionCookie()).toMatch(/^\S+$/);
    expect((await stranger.auth.me()).id).toBe(account.id);
    const restricted = await failureOf(stranger.profiles.list().toArray());
    expect(restricted.status).toBe(403);
    expect(restricted.code).toBe('mfa_enrolment_required');

    const fresh = await stranger.auth.totp.start();
    clock.advance(STEP);
    await stranger.auth.totp.confirm(totpCode(fresh.secret, clock.now()));
    expect(await stranger.profiles.list().toArray()).toEqual([]);
  });
});
