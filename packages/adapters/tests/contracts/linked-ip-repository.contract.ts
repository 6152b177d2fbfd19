import type { LinkedIpRecord, LinkedIpState } from '@svc/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ContractStorage, StoreUnderTest } from '../support/every-storage.js';
import { profileRecord } from '../support/profile-records.js';

const T0 = new Date('2026-11-22T10:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

/**
 * The behaviour every LinkedIpRepository must have (spec 4.4): an address on one link anywhere, reported as a
 * result that leaves the transaction usable; DDNS lookups that follow rotation; links bound to their
 * organisation and profile, and gone with their profile.
 */
export function runLinkedIpRepositoryContract(storage: ContractStorage): void {
  let engine: StoreUnderTest;
  let n = 0;
  const orgA = crypto.randomUUID();
  const orgB = crypto.randomUUID();

  const profile = async (orgId: string): Promise<string> => {
    n += 1;
    const id = `lp${String(n).padStart(4, '0')}`;
    const record = profileRecord(id, orgId, T0);
    await engine.uow.run(async (tx) => {
      expect(await tx.profiles.insert(record)).toBe(true);
    });
    return id;
  };
  const linkOf = (
    orgId: string,
    profileId: string,
    ip: string | null,
    offset = 0,
    state: LinkedIpState = ip === null ? 'pending' : 'active',
  ): LinkedIpRecord => {
    const id = crypto.randomUUID();
    return {
      id,
      orgId,
      profileId,
      ip,
      state,
      ddns: ip === null,
      ddnsGeneration: 1,
      ddnsLookup: `lookup-${id}`,
      createdAt: at(offset),
      updatedAt: at(offset),
    };
  };

  beforeAll(async () => {
    engine = await storage.open();
    await engine.createOrganisation(orgA);
    await engine.createOrganisation(orgB);
  }, 60_000);
  afterAll(async () => engine?.dispose());

  it('stores a link and finds it by organisation, profile and DDNS lookup', async () => {
    const profileId = await profile(orgA);
    const link = linkOf(orgA, profileId, '192.0.2.1');
    await engine.uow.run(async (tx) => {
      expect(await tx.linkedIps.insert(link)).toBe('written');
      expect(await tx.linkedIps.find(orgA, profileId, link.id)).toEqual(link);
      expect(await tx.linkedIps.find(orgB, profileId, link.id)).toBeNull();
      expect(await tx.linkedIps.findByDdnsLookup(link.ddnsLookup)).toEqual(link);
      expect(await tx.linkedIps.addresses(profileId)).toEqual(['192.0.2.1']);
    });
  });

  it('reports an address linked anywhere as ip_conflict and keeps the transaction usable', async () => {
    const mine = await profile(orgA);
    const theirs = await profile(orgB);
    await engine.uow.run(async (tx) => {
      expect(await tx.linkedIps.insert(linkOf(orgA, mine, '192.0.2.2'))).toBe('written');
    });
    const kept = linkOf(orgB, theirs, '192.0.2.3');
    await engine.uow.run(async (tx) => {
      expect(await tx.linkedIps.insert(linkOf(orgB, theirs, '192.0.2.2'))).toBe('ip_conflict');
      expect(await tx.linkedIps.insert(kept)).toBe('written');
      expect(await tx.linkedIps.setIp(kept.id, '192.0.2.2', at(1))).toBe('ip_conflict');
      expect(await tx.linkedIps.insert(linkOf(orgB, theirs, null))).toBe('written');
      expect(await tx.linkedIps.insert(linkOf(orgB, theirs, null))).toBe('written');
    });
    await engine.uow.run(async (tx) => {
      expect(await tx.linkedIps.addresses(theirs)).toEqual(['192.0.2.3']);
      expect(await tx.linkedIps.list(orgB, theirs, { limit: 10, after: null })).toHaveLength(3);
    });
  });

  it('moves an address and follows a rotated DDNS token', async () => {
    const profileId = await profile(orgA);
    const slot = linkOf(orgA, profileId, null);
    await engine.uow.run(async (tx) => {
      await tx.linkedIps.insert(slot);
      expect(await tx.linkedIps.setIp(slot.id, '192.0.2.4', at(5))).toBe('written');
      await tx.linkedIps.setDdnsToken(slot.id, 2, 'rotated');
    });
    await engine.uow.run(async (tx) => {
      expect(await tx.linkedIps.findByDdnsLookup(slot.ddnsLookup)).toBeNull();
      expect(await tx.linkedIps.findByDdnsLookup('rotated')).toEqual({
        ...slot,
        ip: '192.0.2.4',
        state: 'active',
        ddnsGeneration: 2,
        ddnsLookup: 'rotated',
        updatedAt: at(5),
      });
    });
  });

  it('lets pending claims of an address wait beside each other and beside its active link (issue 35)', async () => {
    const owner = await profile(orgA);
    const claimant = await profile(orgB);
    const claim = linkOf(orgB, claimant, '192.0.2.50', 0, 'pending');
    await engine.uow.run(async (tx) => {
      expect(await tx.linkedIps.insert(claim)).toBe('written');
      expect(await tx.linkedIps.insert(linkOf(orgB, claimant, '192.0.2.50', 0, 'pending'))).toBe('written');
      expect(await tx.linkedIps.insert(linkOf(orgA, owner, '192.0.2.50'))).toBe('written');
      expect(await tx.linkedIps.addresses(claimant)).toEqual([]);
      expect(await tx.linkedIps.addresses(owner)).toEqual(['192.0.2.50']);
    });
    await engine.uow.run(async (tx) => {
      // Proving the claim would make a second active holder: refused, the claim stays pending.
      expect(await tx.linkedIps.setIp(claim.id, '192.0.2.50', at(1))).toBe('ip_conflict');
      expect((await tx.linkedIps.find(orgB, claimant, claim.id))?.state).toBe('pending');
      expect(await tx.linkedIps.setIp(claim.id, '192.0.2.51', at(2))).toBe('written');
      expect(await tx.linkedIps.find(orgB, claimant, claim.id)).toEqual({
        ...claim,
        ip: '192.0.2.51',
        state: 'active',
        updatedAt: at(2),
      });
      expect(await tx.linkedIps.addresses(claimant)).toEqual(['192.0.2.51']);
    });
  });

  it('deletes an organisation’s pending address claims, older than a cutoff when given; empty slots stay', async () => {
    const mine = await profile(orgA);
    const theirs = await profile(orgB);
    const old = linkOf(orgA, mine, '192.0.2.60', 0, 'pending');
    const young = linkOf(orgA, mine, '192.0.2.61', 10_000, 'pending');
    const active = linkOf(orgA, mine, '192.0.2.62');
    const slot = linkOf(orgA, mine, null);
    const foreign = linkOf(orgB, theirs, '192.0.2.63', 0, 'pending');
    await engine.uow.run(async (tx) => {
      for (const link of [old, young, active, slot, foreign]) await tx.linkedIps.insert(link);
      expect(await tx.linkedIps.deletePending(orgA, at(5_000))).toBe(1);
      expect(await tx.linkedIps.find(orgA, mine, old.id)).toBeNull();
      expect(await tx.linkedIps.find(orgA, mine, young.id)).not.toBeNull();
      expect(await tx.linkedIps.deletePending(orgA)).toBe(1);
      const left = (await tx.linkedIps.listOfOrganisation(orgA)).filter((link) => link.profileId === mine);
      expect(left.map((link) => link.id).sort()).toEqual([active.id, slot.id].sort());
      expect(await tx.linkedIps.find(orgB, theirs, foreign.id)).not.toBeNull();
    });
  });

  it('lists newest first after a keyset position, and deletes only within the organisation', async () => {
    const profileId = await profile(orgA);
    const links = [0, 1, 2].map((offset) => linkOf(orgA, profileId, `192.0.2.${10 + offset}`, offset * 1000));
    await engine.uow.run(async (tx) => {
      for (const link of links) await tx.linkedIps.insert(link);
      const page = await tx.linkedIps.list(orgA, profileId, { limit: 2, after: null });
      expect(page.map((link) => link.ip)).toEqual(['192.0.2.12', '192.0.2.11']);
      const rest = await tx.linkedIps.list(orgA, profileId, {
        limit: 2,
        after: { createdAt: links[1]?.createdAt ?? T0, id: links[1]?.id ?? '' },
      });
      expect(rest.map((link) => link.ip)).toEqual(['192.0.2.10']);
      expect(await tx.linkedIps.delete(orgB, profileId, links[0]?.id ?? '')).toBe(false);
      expect(await tx.linkedIps.delete(orgA, profileId, links[0]?.id ?? '')).toBe(true);
      expect(await tx.linkedIps.addresses(profileId)).toEqual(['192.0.2.11', '192.0.2.12']);
    });
  });

  it('removes a profile’s links with the profile, freeing its addresses', async () => {
    const gone = await profile(orgA);
    const other = await profile(orgB);
    await engine.uow.run(async (tx) => {
      await tx.linkedIps.insert(linkOf(orgA, gone, '192.0.2.20'));
    });
    await engine.uow.run(async (tx) => {
      expect(await tx.profiles.delete(orgA, gone)).toBe(true);
    });
    await engine.uow.run(async (tx) => {
      expect(await tx.linkedIps.addresses(gone)).toEqual([]);
      expect(await tx.linkedIps.insert(linkOf(orgB, other, '192.0.2.20'))).toBe('written');
    });
  });

  it('counts the links of a profile and of its whole organisation, DDNS slots included', async () => {
    const [first, second, elsewhere] = [await profile(orgA), await profile(orgA), await profile(orgB)];
    await engine.uow.run(async (tx) => {
      const before = await tx.linkedIps.countForCaps(orgA, first);
      expect(before.profile).toBe(0);
      await tx.linkedIps.insert(linkOf(orgA, first, '192.0.2.40'));
      await tx.linkedIps.insert(linkOf(orgA, first, null));
      await tx.linkedIps.insert(linkOf(orgA, second, '192.0.2.41'));
      await tx.linkedIps.insert(linkOf(orgB, elsewhere, '192.0.2.42'));
      expect(await tx.linkedIps.countForCaps(orgA, first)).toEqual({
        profile: 2,
        organisation: before.organisation + 3,
      });
      expect(await tx.linkedIps.countForCaps(orgA, second)).toEqual({
        profile: 1,
        organisation: before.organisation + 3,
      });
    });
  });

  it('rolls back links written by a failed transaction', async () => {
    const profileId = await profile(orgA);
    await expect(
      engine.uow.run(async (tx) => {
        await tx.linkedIps.insert(linkOf(orgA, profileId, '192.0.2.30'));
        throw new Error('abandoned');
      }),
    ).rejects.toThrow('abandoned');
    await engine.uow.run(async (tx) => {
      expect(await tx.linkedIps.addresses(profileId)).toEqual([]);
    });
  });
}
