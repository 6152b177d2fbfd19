import type { DeviceSightingSpan } from '@svc/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ContractStorage, StoreUnderTest } from '../support/every-storage.js';
import { profileRecord } from '../support/profile-records.js';

const T0 = new Date('2026-11-22T10:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

/**
 * The behaviour every DeviceRepository must have (spec 2.5, 3): sightings merged into one device per profile
 * and name, overrides kept until the device is forgotten, a forgotten device seen again is new, sightings of a
 * missing profile dropped, and pages most recently seen first.
 */
export function runDeviceRepositoryContract(storage: ContractStorage): void {
  let engine: StoreUnderTest;
  let n = 0;
  const orgId = crypto.randomUUID();

  const profile = async (): Promise<string> => {
    n += 1;
    const id = `dv${String(n).padStart(4, '0')}`;
    await engine.uow.run(async (tx) => {
      expect(await tx.profiles.insert(profileRecord(id, orgId, T0))).toBe(true);
    });
    return id;
  };
  const span = (profileId: string, id: string, from: number, to: number): DeviceSightingSpan => ({
    profileId,
    id,
    name: `name of ${id}`,
    identification: 'doh_path',
    transport: 'doh',
    firstSeenAt: at(from),
    lastSeenAt: at(to),
  });

  beforeAll(async () => {
    engine = await storage.open();
    await engine.createOrganisation(orgId);
  }, 60_000);
  afterAll(async () => engine?.dispose());

  it('stores a new device with the span, no overrides, and finds it by profile and id', async () => {
    const profileId = await profile();
    const other = await profile();
    await engine.uow.run(async (tx) => {
      expect(await tx.devices.recordSighting(span(profileId, 'phone', 0, 1_000))).toBe(true);
      expect(await tx.devices.find(profileId, 'phone')).toEqual({
        profileId,
        id: 'phone',
        name: 'name of phone',
        displayName: null,
        kind: 'other',
        notes: '',
        identification: 'doh_path',
        transportLast: 'doh',
        firstSeen: at(0),
        lastSeen: at(1_000),
      });
      expect(await tx.devices.find(other, 'phone')).toBeNull();
    });
  });

  it('keeps the earlier first sighting and the later last one, and takes name and transport of the later span', async () => {
    const profileId = await profile();
    await engine.uow.run(async (tx) => {
      await tx.devices.recordSighting(span(profileId, 'tv', 10_000, 20_000));
      await tx.devices.recordSighting({
        ...span(profileId, 'tv', 30_000, 40_000),
        name: 'renamed',
        identification: 'sni',
        transport: 'dot',
      });
      // An older span (a late batch) widens the window but changes nothing else.
      await tx.devices.recordSighting({
        ...span(profileId, 'tv', 5_000, 6_000),
        name: 'stale',
        transport: null,
      });
      expect(await tx.devices.find(profileId, 'tv')).toEqual(
        expect.objectContaining({
          name: 'renamed',
          identification: 'sni',
          transportLast: 'dot',
          firstSeen: at(5_000),
          lastSeen: at(40_000),
        }),
      );
    });
  });

  it('keeps overrides across sightings, and forgets them with the device, which comes back new', async () => {
    const profileId = await profile();
    await engine.uow.run(async (tx) => {
      expect(
        await tx.devices.saveOverrides(profileId, 'laptop', { displayName: 'x', kind: 'laptop', notes: '' }),
      ).toBe(false);
      await tx.devices.recordSighting(span(profileId, 'laptop', 0, 1_000));
      const overrides = { displayName: 'Work laptop', kind: 'laptop' as const, notes: 'desk' };
      expect(await tx.devices.saveOverrides(profileId, 'laptop', overrides)).toBe(true);
      await tx.devices.recordSighting(span(profileId, 'laptop', 2_000, 3_000));
      expect(await tx.devices.find(profileId, 'laptop')).toEqual(expect.objectContaining(overrides));
      expect(await tx.devices.delete(profileId, 'laptop')).toBe(true);
      expect(await tx.devices.delete(profileId, 'laptop')).toBe(false);
      expect(await tx.devices.find(profileId, 'laptop')).toBeNull();
      await tx.devices.recordSighting(span(profileId, 'laptop', 4_000, 5_000));
      expect(await tx.devices.find(profileId, 'laptop')).toEqual(
        expect.objectContaining({ displayName: null, kind: 'other', notes: '', firstSeen: at(4_000) }),
      );
    });
  });

  it('drops sightings of a profile that does not exist', async () => {
    await engine.uow.run(async (tx) => {
      expect(await tx.devices.recordSighting(span('dvmissing', 'phone', 0, 1_000))).toBe(false);
      expect(await tx.devices.find('dvmissing', 'phone')).toBeNull();
    });
  });

  it('pages most recently seen first, ties broken by id descending, after the keyset position', async () => {
    const profileId = await profile();
    const other = await profile();
    await engine.uow.run(async (tx) => {
      await tx.devices.recordSighting(span(profileId, 'a', 0, 1_000));
      await tx.devices.recordSighting(span(profileId, 'b', 0, 3_000));
      await tx.devices.recordSighting(span(profileId, 'c', 0, 3_000));
      await tx.devices.recordSighting(span(profileId, 'd', 0, 2_000));
      await tx.devices.recordSighting(span(other, 'e', 0, 9_000));
    });
    const ids = await engine.uow.run(async (tx) => {
      const first = await tx.devices.list(profileId, { limit: 2, after: null });
      const last = first.at(-1);
      if (last === undefined) throw new Error('empty first page');
      const second = await tx.devices.list(profileId, {
        limit: 2,
        after: { lastSeen: last.lastSeen, id: last.id },
      });
      const end = second.at(-1);
      if (end === undefined) throw new Error('empty second page');
      const third = await tx.devices.list(profileId, {
        limit: 2,
        after: { lastSeen: end.lastSeen, id: end.id },
      });
      return [first, second, third].map((page) => page.map((device) => device.id));
    });
    expect(ids).toEqual([['c', 'b'], ['d', 'a'], []]);
  });
}
