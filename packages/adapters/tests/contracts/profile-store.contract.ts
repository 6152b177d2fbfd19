import type { ProfileRecord, ProfileStore, UnitOfWork } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileRecord } from '../support/profile-records.js';

const T0 = new Date('2026-11-23T10:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

/** What the contract runs against: the store under test, a unit of work to write with, organisations. */
export interface ProfileStoreEngine {
  store: ProfileStore;
  uow: UnitOfWork;
  createOrganisation(id: string): Promise<void>;
  dispose(): Promise<void>;
}

/**
 * The behaviour every ProfileStore must have (spec 1.9, 4.2): a read finds only the caller's organisation's
 * live profile, exactly as stored; concurrent reads (which an adapter may coalesce) each get their own answer;
 * and a read asked after a write committed sees that write, however many reads are in flight.
 */
export function runProfileStoreContract(
  name: string,
  make: () => Promise<ProfileStoreEngine>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`ProfileStore contract: ${name}`, () => {
    let engine: ProfileStoreEngine;
    let n = 0;
    const orgA = crypto.randomUUID();
    const orgB = crypto.randomUUID();
    const orgC = crypto.randomUUID();

    const profile = async (orgId: string, offset = 0): Promise<ProfileRecord> => {
      n += 1;
      const id = `ps${String(n).padStart(4, '0')}`;
      const record = profileRecord(id, orgId, at(offset), {
        name: `profile ${id}`,
        rules: { deny: [`${id}.example`], allow: [], rewrites: [] },
        lists: [n],
      });
      await engine.uow.run(async (tx) => {
        expect(await tx.profiles.insert(record)).toBe(true);
      });
      return record;
    };

    beforeAll(async () => {
      engine = await make();
      for (const org of [orgA, orgB, orgC]) await engine.createOrganisation(org);
    }, 60_000);
    afterAll(async () => engine?.dispose());

    it('finds the organisation’s profile as stored, and nothing for another organisation or an unknown id', async () => {
      const mine = await profile(orgA);
      expect(await engine.store.find(orgA, mine.id)).toEqual(mine);
      expect(await engine.store.find(orgB, mine.id)).toBeNull();
      expect(await engine.store.find(orgA, 'zzzzzz')).toBeNull();
    });

    it('answers each of many concurrent reads as a lone read would, mixed ids and organisations', async () => {
      const ofA = [await profile(orgA), await profile(orgA)];
      const ofB = await profile(orgB);
      const asked = Array.from({ length: 60 }, (_, index) => {
        const cases = [
          { orgId: orgA, id: ofA[0]?.id ?? '', expected: ofA[0] ?? null },
          { orgId: orgA, id: ofA[1]?.id ?? '', expected: ofA[1] ?? null },
          { orgId: orgB, id: ofB.id, expected: ofB },
          { orgId: orgB, id: ofA[0]?.id ?? '', expected: null },
          { orgId: orgA, id: ofB.id, expected: null },
          { orgId: orgA, id: 'zzzzzz', expected: null },
        ];
        return cases[index % cases.length] ?? cases[0];
      });
      const answers = await Promise.all(
        asked.map((read) => engine.store.find(read?.orgId ?? '', read?.id ?? '')),
      );
      expect(answers).toEqual(asked.map((read) => read?.expected));
    });

    it('gives concurrent readers of one profile records of their own', async () => {
      const shared = await profile(orgA);
      const [first, second] = await Promise.all([
        engine.store.find(orgA, shared.id),
        engine.store.find(orgA, shared.id),
      ]);
      expect(first).toEqual(shared);
      expect(second).toEqual(shared);
      expect(first).not.toBe(second);
    });

    it('sees a write that committed before the read was asked, while other reads are in flight', async () => {
      const written = await profile(orgC);
      for (let round = 2; round <= 6; round += 1) {
        const inFlight = Array.from({ length: 20 }, () => engine.store.find(orgC, written.id));
        await engine.uow.run(async (tx) => {
          const current = await tx.profiles.find(orgC, written.id, { forUpdate: true });
          if (current === null) throw new Error('profile gone');
          await tx.profiles.save({
            ...current,
            name: `round ${round}`,
            version: round,
            updatedAt: at(round),
          });
        });
        const after = await engine.store.find(orgC, written.id);
        expect(after).toMatchObject({ name: `round ${round}`, version: round });
        for (const read of await Promise.all(inFlight))
          expect(read?.version).toBeGreaterThanOrEqual(round - 1);
      }
    });

    it('finds no tombstoned profile, and lists live ones newest first', async () => {
      const org = crypto.randomUUID();
      await engine.createOrganisation(org);
      const older = await profile(org, 1000);
      const newer = await profile(org, 2000);
      expect(await engine.store.list(org, { limit: 10, after: null })).toEqual([newer, older]);
      expect(
        await engine.store.list(org, { limit: 10, after: { createdAt: newer.createdAt, id: newer.id } }),
      ).toEqual([older]);

      await engine.uow.run(async (tx) => {
        expect(await tx.profiles.tombstoneAll(org, at(3000))).toHaveLength(2);
      });
      const reads = await Promise.all([engine.store.find(org, older.id), engine.store.find(org, newer.id)]);
      expect(reads).toEqual([null, null]);
      expect(await engine.store.list(org, { limit: 10, after: null })).toEqual([]);
    });
  });
}
