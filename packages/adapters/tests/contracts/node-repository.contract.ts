import type { NodeRecord } from '@svc/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ContractStorage, StoreUnderTest } from '../support/every-storage.js';
import { profileRecord } from '../support/profile-records.js';

const T0 = new Date('2026-11-22T10:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

/**
 * The behaviour every NodeRepository must have (spec 3, 4.13): lookups by the keyed hashes of enrolment codes
 * and of current and previous tokens, every field kept as written, nodes bound to their organisation and
 * profile, newest-first keyset pages, enrolled counts, organisation-wide revocation, a monotonic last-seen
 * mark, and nodes gone with their profile.
 */
export function runNodeRepositoryContract(storage: ContractStorage): void {
  let engine: StoreUnderTest;
  let n = 0;
  const orgA = crypto.randomUUID();
  const orgB = crypto.randomUUID();

  const profile = async (orgId: string): Promise<string> => {
    n += 1;
    const id = `nd${String(n).padStart(4, '0')}`;
    const record = profileRecord(id, orgId, T0);
    await engine.uow.run(async (tx) => {
      expect(await tx.profiles.insert(record)).toBe(true);
    });
    return id;
  };
  const nodeOf = (orgId: string, profileId: string, offset = 0): NodeRecord => {
    const id = crypto.randomUUID();
    return {
      id,
      orgId,
      profileId,
      name: `node-${offset}`,
      state: 'pending',
      enrolmentLookup: `enrol-${id}`,
      enrolmentExpiresAt: at(offset + 86_400_000),
      tokenLookup: null,
      previousTokenLookup: null,
      previousValidUntil: null,
      tokenRotatedAt: null,
      softwareVersion: null,
      shapes: [],
      createdAt: at(offset),
      enrolledAt: null,
      revokedAt: null,
      lastSeenAt: null,
    };
  };
  const insert = (node: NodeRecord) => engine.uow.run((tx) => tx.nodes.insert(node));

  beforeAll(async () => {
    engine = await storage.open();
    await engine.createOrganisation(orgA);
    await engine.createOrganisation(orgB);
  }, 60_000);
  afterAll(async () => engine?.dispose());

  it('keeps every field as written and finds a node by each of its lookups, within its organisation', async () => {
    const profileId = await profile(orgA);
    const pending = nodeOf(orgA, profileId);
    await insert(pending);
    const enrolled: NodeRecord = {
      ...pending,
      state: 'enrolled',
      tokenLookup: `token-${pending.id}`,
      previousTokenLookup: `previous-${pending.id}`,
      previousValidUntil: at(600_000),
      tokenRotatedAt: at(1_000),
      softwareVersion: '1.2.3',
      shapes: ['tail', 'top_domains'],
      enrolledAt: at(500),
      lastSeenAt: at(2_000),
    };
    await engine.uow.run((tx) => tx.nodes.save(enrolled));
    await engine.uow.run(async (tx) => {
      expect(await tx.nodes.find(orgA, profileId, pending.id)).toEqual(enrolled);
      expect(await tx.nodes.find(orgB, profileId, pending.id)).toBeNull();
      expect(await tx.nodes.findById(pending.id, { forUpdate: true })).toEqual(enrolled);
      expect(await tx.nodes.findByEnrolmentLookup(pending.enrolmentLookup)).toEqual(enrolled);
      expect(await tx.nodes.findByTokenLookup(`token-${pending.id}`)).toEqual(enrolled);
      expect(await tx.nodes.findByTokenLookup(`previous-${pending.id}`)).toEqual(enrolled);
      expect(await tx.nodes.findByTokenLookup('unknown')).toBeNull();
    });
  });

  it('lists a profile’s nodes newest first after a keyset position, and counts the enrolled ones', async () => {
    const profileId = await profile(orgA);
    const nodes = [
      nodeOf(orgA, profileId, 0),
      nodeOf(orgA, profileId, 1_000),
      nodeOf(orgA, profileId, 2_000),
    ];
    for (const node of nodes) await insert(node);
    await engine.uow.run((tx) => tx.nodes.save({ ...(nodes[1] as NodeRecord), state: 'enrolled' }));
    await engine.uow.run(async (tx) => {
      const first = await tx.nodes.list(orgA, profileId, { limit: 2, after: null });
      expect(first.map((node) => node.id)).toEqual([nodes[2]?.id, nodes[1]?.id]);
      const last = first.at(-1) as NodeRecord;
      const rest = await tx.nodes.list(orgA, profileId, {
        limit: 2,
        after: { createdAt: last.createdAt, id: last.id },
      });
      expect(rest.map((node) => node.id)).toEqual([nodes[0]?.id]);
      expect(await tx.nodes.list(orgB, profileId, { limit: 10, after: null })).toEqual([]);
      expect(await tx.nodes.countEnrolled(profileId)).toBe(1);
    });
  });

  it('revokes every live node of one organisation only, and returns their ids', async () => {
    const mine = await profile(orgA);
    const theirs = await profile(orgB);
    const live = nodeOf(orgA, mine);
    const gone = { ...nodeOf(orgA, mine), state: 'revoked' as const, revokedAt: at(5) };
    const other = nodeOf(orgB, theirs);
    for (const node of [live, gone, other]) await insert(node);
    const revoked = await engine.uow.run((tx) => tx.nodes.revokeAll(orgA, at(10)));
    expect(revoked).toContain(live.id);
    expect(revoked).not.toContain(gone.id);
    await engine.uow.run(async (tx) => {
      expect(await tx.nodes.findById(live.id)).toMatchObject({ state: 'revoked', revokedAt: at(10) });
      expect(await tx.nodes.findById(gone.id)).toMatchObject({ revokedAt: at(5) });
      expect(await tx.nodes.findById(other.id)).toMatchObject({ state: 'pending', revokedAt: null });
    });
  });

  it('moves the last-seen mark forward only, and records the software a link reports', async () => {
    const profileId = await profile(orgA);
    const node = nodeOf(orgA, profileId);
    await insert(node);
    await engine.uow.run(async (tx) => {
      await tx.nodes.touch(node.id, at(2_000));
      await tx.nodes.touch(node.id, at(1_000), { version: '2.0.0', shapes: ['search'] });
      expect(await tx.nodes.findById(node.id)).toMatchObject({
        lastSeenAt: at(2_000),
        softwareVersion: '2.0.0',
        shapes: ['search'],
      });
    });
  });

  it('removes a profile’s nodes with the profile', async () => {
    const profileId = await profile(orgA);
    const node = nodeOf(orgA, profileId);
    await insert(node);
    await engine.uow.run(async (tx) => {
      expect(await tx.profiles.delete(orgA, profileId)).toBe(true);
      expect(await tx.nodes.findById(node.id)).toBeNull();
    });
  });
}
