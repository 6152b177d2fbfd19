import { IpaddrRangeClassifier } from '@svc/adapters';
import {
  DomainError,
  type LinkedIpPolicy,
  LinkedIpService,
  PENDING_LINK_LIFETIME_MS,
  profileSubject,
} from '@svc/domain';
import { describe, expect, it } from 'vitest';
import { codeOf, memoryWorld, ORG, OTHER_ORG, VERIFIED } from '../fixtures/memory-world.js';

/** Public unicast addresses, as a client of the edge has. */
const HOME = '8.8.4.4';
const OFFICE = '9.9.9.9';
const STRANGER = { orgId: OTHER_ORG, emailVerifiedAt: VERIFIED.emailVerifiedAt };

const POLICY: LinkedIpPolicy = { perProfile: 3, perAccount: 4, documentationRanges: false };

/** A linked-IP service on the memory stores, with one profile of ORG. */
async function setUp(policy: Partial<LinkedIpPolicy> = {}) {
  const world = await memoryWorld();
  const sut = new LinkedIpService({
    uow: world.uow,
    profiles: world.profiles,
    profileStore: world.stores.profiles.repository(),
    store: world.stores.linkedIps.repository(),
    random: world.random,
    clock: world.clock,
    cursors: world.cursors,
    keyedHash: world.keyedHash,
    baseUrl: 'https://api.example',
    ranges: new IpaddrRangeClassifier(),
    policy: { ...POLICY, ...policy },
  });
  const profile = await world.newProfile();
  /** The profile's version and linked addresses, as stored. */
  const stored = async (orgId = ORG, id = profile.id) => {
    const record = await world.stores.profiles.repository().find(orgId, id);
    return { version: record?.version, links: (await sut.list(orgId, id, 50, undefined)).linked_ips };
  };
  /** The linked addresses of the last document published for the profile. */
  const publishedAddresses = async (id = profile.id) => {
    await world.delivered();
    const documents = world.published.filter((delivery) => delivery.subject === profileSubject(id));
    return (documents.at(-1)?.payload as { linked_ips?: string[] } | undefined)?.linked_ips;
  };
  return { ...world, sut, profile, stored, publishedAddresses };
}

function tokenOf(url: string): string {
  const token = url.split('/v1/ddns/')[1];
  if (token === undefined) throw new Error(`not a DDNS URL: ${url}`);
  return token;
}

async function fieldsOf(promise: Promise<unknown>): Promise<string[]> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof DomainError)) throw new Error('expected a domain error');
  expect(error.code).toBe('validation_failed');
  return error.fieldErrors.map((fieldError) => fieldError.field);
}

describe(LinkedIpService.name, () => {
  describe('link (spec 4.4)', () => {
    it('links the caller’s own address as active: one version bump, published to the edge', async () => {
      const { sut, profile, stored, publishedAddresses } = await setUp();
      const link = await sut.link(VERIFIED, profile.id, { ip: HOME }, HOME);

      expect(link).toMatchObject({ ip: HOME, state: 'active', ddns: false });
      expect(sut.createdView(link).proof_url).toBeUndefined();
      expect(await stored()).toMatchObject({ version: profile.version + 1, links: [{ id: link.id }] });
      expect(await publishedAddresses()).toEqual([HOME]);
    });

    it('takes an IPv4-mapped IPv6 caller as its IPv4 address', async () => {
      const { sut, profile } = await setUp();
      expect((await sut.link(VERIFIED, profile.id, { ip: HOME }, `::ffff:${HOME}`)).state).toBe('active');
    });

    it('reads an IPv4-mapped caller written in hexadecimal or upper case as the same IPv4 address', async () => {
      const { sut, profile } = await setUp();
      const hex = HOME.split('.').map((octet) => Number(octet).toString(16).padStart(2, '0'));
      const caller = `::FFFF:${hex[0]}${hex[1]}:${hex[2]}${hex[3]}`;
      expect((await sut.link(VERIFIED, profile.id, { ip: HOME }, caller)).state).toBe('active');
    });

    it('keeps a claim from another address pending: proof URL shown, nothing published, nobody blocked', async () => {
      const context = await setUp();
      const claim = await context.sut.link(VERIFIED, context.profile.id, { ip: HOME }, OFFICE);

      expect(claim.state).toBe('pending');
      expect(context.sut.createdView(claim).proof_url).toMatch(
        /^https:\/\/api\.example\/v1\/ddns\/[A-Za-z0-9_-]{43}$/,
      );
      expect(await context.publishedAddresses()).toEqual([]);
      const theirs = await context.newProfile(OTHER_ORG, 'theirs');
      expect((await context.sut.link(STRANGER, theirs.id, { ip: HOME }, HOME)).state).toBe('active');
    });

    it('answers ip_conflict for an address actively linked anywhere, another organisation’s included', async () => {
      const context = await setUp();
      await context.sut.link(VERIFIED, context.profile.id, { ip: HOME }, HOME);
      const theirs = await context.newProfile(OTHER_ORG, 'theirs');

      expect(await codeOf(context.sut.link(STRANGER, theirs.id, { ip: HOME }, HOME))).toBe('ip_conflict');
      expect((await context.stored(OTHER_ORG, theirs.id)).links).toEqual([]);
    });

    it('refuses private, loopback and reserved addresses with validation_failed naming ip', async () => {
      const { sut, profile, stored } = await setUp();
      for (const ip of ['10.1.2.3', '127.0.0.1', '169.254.1.1', '100.64.0.1', '224.0.0.1', '0.0.0.0']) {
        expect(await fieldsOf(sut.link(VERIFIED, profile.id, { ip }, ip))).toEqual(['ip']);
      }
      expect((await stored()).links).toEqual([]);
    });

    it('refuses documentation addresses outside development only', async () => {
      const production = await setUp();
      const example = '203.0.113.9';
      expect(
        await fieldsOf(production.sut.link(VERIFIED, production.profile.id, { ip: example }, example)),
      ).toEqual(['ip']);
      const development = await setUp({ documentationRanges: true });
      const link = await development.sut.link(VERIFIED, development.profile.id, { ip: example }, example);
      expect(link.state).toBe('active');
    });

    it('caps links per profile and per account, DDNS slots included (too_many_linked_ips)', async () => {
      const context = await setUp();
      await context.sut.link(VERIFIED, context.profile.id, { ip: HOME }, HOME);
      await context.sut.link(VERIFIED, context.profile.id, { ddns: true }, HOME);
      await context.sut.link(VERIFIED, context.profile.id, { ip: OFFICE }, HOME);
      expect(await codeOf(context.sut.link(VERIFIED, context.profile.id, { ddns: true }, HOME))).toBe(
        'too_many_linked_ips',
      );

      const second = await context.newProfile(ORG, 'second');
      await context.sut.link(VERIFIED, second.id, { ddns: true }, HOME);
      expect(await codeOf(context.sut.link(VERIFIED, second.id, { ddns: true }, HOME))).toBe(
        'too_many_linked_ips',
      );
      expect((await context.stored(ORG, second.id)).links).toHaveLength(1);
    });

    it('answers email_unverified to every change before the address is verified', async () => {
      const { sut, profile } = await setUp();
      const link = await sut.link(VERIFIED, profile.id, { ddns: true }, HOME);
      const unverified = { orgId: ORG, emailVerifiedAt: null };

      expect(await codeOf(sut.link(unverified, profile.id, { ddns: true }, HOME))).toBe('email_unverified');
      expect(await codeOf(sut.updateUrl(unverified, profile.id, link.id))).toBe('email_unverified');
      expect(await codeOf(sut.rotateUpdateUrl(unverified, profile.id, link.id))).toBe('email_unverified');
    });

    it('honours the expected version: version_mismatch changes nothing', async () => {
      const { sut, profile, stored } = await setUp();
      const code = await codeOf(sut.link(VERIFIED, profile.id, { ip: HOME }, HOME, profile.version + 5));
      expect(code).toBe('version_mismatch');
      expect(await stored()).toEqual({ version: profile.version, links: [] });
    });

    it('refuses every change to a suspended profile with profile_suspended; reads still work', async () => {
      const { sut, profile, stores, stored } = await setUp();
      const link = await sut.link(VERIFIED, profile.id, { ip: HOME }, OFFICE);
      await stores.profiles.repository().save({ ...profile, version: profile.version + 1, suspended: true });
      const token = tokenOf(await sut.updateUrl(VERIFIED, profile.id, link.id));

      expect(await codeOf(sut.link(VERIFIED, profile.id, { ddns: true }, HOME))).toBe('profile_suspended');
      expect(await codeOf(sut.unlink(ORG, profile.id, link.id))).toBe('profile_suspended');
      expect(await codeOf(sut.rotateUpdateUrl(VERIFIED, profile.id, link.id))).toBe('profile_suspended');
      expect(await codeOf(sut.updateFromDdns(token, HOME))).toBe('profile_suspended');
      expect((await stored()).links).toMatchObject([{ id: link.id, state: 'pending' }]);
    });
  });

  describe('DDNS (spec 4.13)', () => {
    it('fills an empty slot from the caller’s address: changed once, then unchanged, one version each', async () => {
      const { sut, profile, stored, publishedAddresses } = await setUp();
      const slot = await sut.link(VERIFIED, profile.id, { ddns: true }, HOME);
      const token = tokenOf(await sut.updateUrl(VERIFIED, profile.id, slot.id));
      const before = (await stored()).version ?? 0;

      expect(await sut.updateFromDdns(token, HOME)).toEqual({ ip: HOME, changed: true });
      expect(await sut.updateFromDdns(token, HOME)).toEqual({ ip: HOME, changed: false });
      expect(await stored()).toMatchObject({ version: before + 1, links: [{ ip: HOME, state: 'active' }] });
      expect(await publishedAddresses()).toEqual([HOME]);
    });

    it('proves a pending claim when its proof URL is called from the address', async () => {
      const { sut, profile, stored } = await setUp();
      const claim = await sut.link(VERIFIED, profile.id, { ip: HOME }, OFFICE);
      const proof = sut.createdView(claim).proof_url ?? '';

      expect(await sut.updateFromDdns(tokenOf(proof), HOME)).toEqual({ ip: HOME, changed: true });
      expect((await stored()).links).toMatchObject([{ id: claim.id, state: 'active' }]);
    });

    it('refuses an IPv6 caller and a private one with validation_failed naming ip, changing nothing', async () => {
      const { sut, profile, stored } = await setUp();
      const slot = await sut.link(VERIFIED, profile.id, { ddns: true }, HOME);
      const token = tokenOf(await sut.updateUrl(VERIFIED, profile.id, slot.id));
      const before = await stored();

      expect(await fieldsOf(sut.updateFromDdns(token, '2001:db8::1'))).toEqual(['ip']);
      expect(await fieldsOf(sut.updateFromDdns(token, '192.168.1.1'))).toEqual(['ip']);
      expect(await stored()).toEqual(before);
    });

    it('answers ip_conflict when the caller’s address is actively linked elsewhere', async () => {
      const context = await setUp();
      const theirs = await context.newProfile(OTHER_ORG, 'theirs');
      await context.sut.link(STRANGER, theirs.id, { ip: HOME }, HOME);
      const slot = await context.sut.link(VERIFIED, context.profile.id, { ddns: true }, OFFICE);
      const token = tokenOf(await context.sut.updateUrl(VERIFIED, context.profile.id, slot.id));

      expect(await codeOf(context.sut.updateFromDdns(token, HOME))).toBe('ip_conflict');
      expect((await context.stored()).links).toMatchObject([{ id: slot.id, ip: null }]);
    });

    it('rotates the token: the old URL is not found at once, the new one works, the version stays', async () => {
      const { sut, profile, stored } = await setUp();
      const slot = await sut.link(VERIFIED, profile.id, { ddns: true }, HOME);
      const old = tokenOf(await sut.updateUrl(VERIFIED, profile.id, slot.id));
      const before = (await stored()).version;
      const rotated = tokenOf(await sut.rotateUpdateUrl(VERIFIED, profile.id, slot.id));

      expect(rotated).not.toBe(old);
      expect((await stored()).version).toBe(before);
      expect(await codeOf(sut.updateFromDdns(old, HOME))).toBe('not_found');
      expect(tokenOf(await sut.updateUrl(VERIFIED, profile.id, slot.id))).toBe(rotated);
      expect((await sut.updateFromDdns(rotated, HOME)).changed).toBe(true);
    });

    it('answers not_found for a token never issued or malformed', async () => {
      const { sut } = await setUp();
      expect(await codeOf(sut.updateFromDdns('A'.repeat(43), HOME))).toBe('not_found');
      expect(await codeOf(sut.updateFromDdns('../../etc/passwd', HOME))).toBe('not_found');
    });
  });

  describe('expiry, removal and isolation', () => {
    it('drops a claim left unproven for 24 hours: not found, its proof URL not found, no cap held', async () => {
      const { sut, profile, clock, stored } = await setUp({ perProfile: 1 });
      const claim = await sut.link(VERIFIED, profile.id, { ip: HOME }, OFFICE);
      const proof = tokenOf(sut.createdView(claim).proof_url ?? '');
      clock.advance(PENDING_LINK_LIFETIME_MS + 1);

      expect(await codeOf(sut.get(ORG, profile.id, claim.id))).toBe('not_found');
      expect(await codeOf(sut.updateFromDdns(proof, HOME))).toBe('not_found');
      expect((await stored()).links).toEqual([]);
      expect((await sut.link(VERIFIED, profile.id, { ip: OFFICE }, OFFICE)).state).toBe('active');
    });

    it('unlinks: gone from the list and the edge, its DDNS URL stops, the address is free', async () => {
      const context = await setUp();
      const link = await context.sut.link(VERIFIED, context.profile.id, { ip: HOME }, HOME);
      const token = tokenOf(await context.sut.updateUrl(VERIFIED, context.profile.id, link.id));
      await context.sut.unlink(ORG, context.profile.id, link.id);

      expect((await context.stored()).links).toEqual([]);
      expect(await context.publishedAddresses()).toEqual([]);
      expect(await codeOf(context.sut.updateFromDdns(token, HOME))).toBe('not_found');
      expect(await codeOf(context.sut.unlink(ORG, context.profile.id, link.id))).toBe('not_found');
      const theirs = await context.newProfile(OTHER_ORG, 'theirs');
      expect((await context.sut.link(STRANGER, theirs.id, { ip: HOME }, HOME)).state).toBe('active');
    });

    it('frees the addresses of a deleted profile', async () => {
      const context = await setUp();
      await context.sut.link(VERIFIED, context.profile.id, { ip: HOME }, HOME);
      await context.profiles.delete(ORG, context.profile.id);

      const next = await context.newProfile(ORG, 'next');
      expect((await context.sut.link(VERIFIED, next.id, { ip: HOME }, HOME)).state).toBe('active');
    });

    it('answers not_found for another organisation’s profile or link, and changes nothing', async () => {
      const { sut, profile, stored } = await setUp();
      const link = await sut.link(VERIFIED, profile.id, { ip: HOME }, HOME);
      const before = await stored();

      expect(await codeOf(sut.list(OTHER_ORG, profile.id, 10, undefined))).toBe('not_found');
      expect(await codeOf(sut.get(OTHER_ORG, profile.id, link.id))).toBe('not_found');
      expect(await codeOf(sut.link(STRANGER, profile.id, { ip: OFFICE }, OFFICE))).toBe('not_found');
      expect(await codeOf(sut.unlink(OTHER_ORG, profile.id, link.id))).toBe('not_found');
      expect(await codeOf(sut.updateUrl(STRANGER, profile.id, link.id))).toBe('not_found');
      expect(await codeOf(sut.rotateUpdateUrl(STRANGER, profile.id, link.id))).toBe('not_found');
      expect(await stored()).toEqual(before);
    });

    it('pages the list newest first', async () => {
      const { sut, profile, clock } = await setUp();
      for (const ip of [HOME, OFFICE, '1.1.1.1']) {
        await sut.link(VERIFIED, profile.id, { ip }, ip);
        clock.advance(1000);
      }
      const page = await sut.list(ORG, profile.id, 2, undefined);
      expect(page.linked_ips.map((link) => link.ip)).toEqual(['1.1.1.1', OFFICE]);
      const next = await sut.list(ORG, profile.id, 2, page.next_cursor ?? undefined);
      expect(next).toMatchObject({ linked_ips: [{ ip: HOME }], next_cursor: null });
    });
  });
});
