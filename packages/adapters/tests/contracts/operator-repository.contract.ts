import type { OperatorBlockRecord, SourceBlockRecord } from '@svc/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ContractStorage, StoreUnderTest } from '../support/every-storage.js';
import { profileRecord } from '../support/profile-records.js';

const T0 = new Date('2026-11-22T10:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const HOUR = 60 * 60 * 1000;

/**
 * The behaviour every OperatorRepository must have (spec 2.8, 2.9): one live block per pattern; entries live,
 * removed or expired at a time, listed newest first; the published files versioned from 0; suspensions of live
 * profiles of any organisation.
 */
export function runOperatorRepositoryContract(storage: ContractStorage): void {
  let engine: StoreUnderTest;
  const orgId = crypto.randomUUID();

  const block = (pattern: string, offset: number, overrides: Partial<OperatorBlockRecord> = {}) =>
    ({
      id: crypto.randomUUID(),
      pattern,
      reasonCode: 'abuse',
      publicRef: `ref-${pattern}`,
      note: 'internal',
      pops: ['fra'],
      jurisdictions: ['DE'],
      expiresAt: null,
      createdBy: 'operator:1',
      createdAt: at(offset),
      removedBy: null,
      removedAt: null,
      expiredAt: null,
      ...overrides,
    }) satisfies OperatorBlockRecord;
  const source = (cidr: string, offset: number, expiresIn: number): SourceBlockRecord => ({
    id: crypto.randomUUID(),
    cidr,
    reason: 'flood',
    pops: [],
    jurisdictions: [],
    expiresAt: at(offset + expiresIn),
    createdBy: 'operator:1',
    createdAt: at(offset),
    removedBy: null,
    removedAt: null,
    expiredAt: null,
  });

  beforeAll(async () => {
    engine = await storage.open();
    await engine.createOrganisation(orgId);
  }, 60_000);
  afterAll(async () => engine?.dispose());

  it('refuses a second live block of a pattern, and takes it again once the first is removed', async () => {
    const first = block('dup.example', 0);
    await engine.uow.run(async (tx) => {
      expect(await tx.operator.blocks.insert(first)).toBe('inserted');
      expect(await tx.operator.blocks.insert(block('dup.example', 1_000))).toBe('exists');
      expect(await tx.operator.blocks.find(first.id)).toEqual(first);
      const removed = await tx.operator.blocks.remove(first.id, 'operator:2', at(2_000));
      expect(removed).toEqual({ ...first, removedBy: 'operator:2', removedAt: at(2_000) });
      expect(await tx.operator.blocks.remove(first.id, 'operator:3', at(3_000))).toBeNull();
      expect(await tx.operator.blocks.insert(block('dup.example', 4_000))).toBe('inserted');
      expect(await tx.operator.blocks.find(crypto.randomUUID())).toBeNull();
    });
  });

  it('lists entries by their state at a time, newest first, page after page', async () => {
    const base = 100 * HOUR;
    const now = at(base + 10 * HOUR);
    const live = source('198.51.100.0/24', base, 20 * HOUR);
    const lapsed = source('198.51.100.1/32', base + 1_000, HOUR);
    const removed = source('198.51.100.2/32', base + 2_000, 20 * HOUR);
    const newest = source('198.51.100.3/32', base + 3_000, 20 * HOUR);
    const lists = await engine.uow.run(async (tx) => {
      for (const each of [live, lapsed, removed, newest]) await tx.operator.sources.insert(each);
      await tx.operator.sources.remove(removed.id, 'operator:2', at(base + 5_000));
      const all = await tx.operator.sources.list(undefined, now, { limit: 3, after: null });
      const last = all.at(-1);
      if (last === undefined) throw new Error('empty first page');
      return {
        all,
        rest: await tx.operator.sources.list(undefined, now, {
          limit: 3,
          after: { createdAt: last.createdAt, id: last.id },
        }),
        live: await tx.operator.sources.list('live', now, { limit: 10, after: null }),
        removed: await tx.operator.sources.list('removed', now, { limit: 10, after: null }),
        expired: await tx.operator.sources.list('expired', now, { limit: 10, after: null }),
        published: await tx.operator.sources.live(now),
      };
    });
    const ids = (rows: readonly SourceBlockRecord[]) => rows.map((row) => row.cidr);
    expect(ids(lists.all)).toEqual([newest.cidr, removed.cidr, lapsed.cidr]);
    expect(ids(lists.rest)).toEqual([live.cidr]);
    expect(ids(lists.live)).toEqual([newest.cidr, live.cidr]);
    expect(ids(lists.removed)).toEqual([removed.cidr]);
    expect(ids(lists.expired)).toEqual([lapsed.cidr]);
    expect(ids(lists.published)).toEqual([live.cidr, newest.cidr]);
  });

  it('marks entries whose expiry passed expired once, after which they no longer hold their pattern', async () => {
    const base = 200 * HOUR;
    const expiring = block('lapse.example', base, { expiresAt: at(base + HOUR) });
    await engine.uow.run(async (tx) => {
      await tx.operator.blocks.insert(expiring);
      expect(await tx.operator.blocks.markExpired(at(base + 30 * 60 * 1000))).toBe(0);
      expect(await tx.operator.blocks.markExpired(at(base + HOUR))).toBe(1);
      expect(await tx.operator.blocks.markExpired(at(base + 2 * HOUR))).toBe(0);
      expect(await tx.operator.blocks.find(expiring.id)).toEqual({ ...expiring, expiredAt: at(base + HOUR) });
      expect(await tx.operator.blocks.insert(block('lapse.example', base + 2 * HOUR))).toBe('inserted');
    });
  });

  it('versions each published file from 0, keeping its document', async () => {
    await engine.uow.run(async (tx) => {
      expect(await tx.operator.readFile('operator_blocks')).toEqual({ version: 0, document: null });
      expect(await tx.operator.lockFile('operator_blocks')).toBe(0);
      await tx.operator.saveFile('operator_blocks', 1, { entries: ['a.example'] }, at(0));
      expect(await tx.operator.lockFile('operator_blocks')).toBe(1);
      expect(await tx.operator.readFile('operator_blocks')).toEqual({
        version: 1,
        document: { entries: ['a.example'] },
      });
      expect(await tx.operator.readFile('operator_sources')).toEqual({ version: 0, document: null });
    });
  });

  it('suspends a live profile of any organisation and clears the suspension', async () => {
    await engine.uow.run(async (tx) => {
      expect(await tx.profiles.insert(profileRecord('opsusp', orgId, T0))).toBe(true);
    });
    const suspension = {
      profileId: 'opsusp',
      reason: 'abuse',
      suspendedBy: 'operator:1',
      suspendedAt: at(0),
    };
    await engine.uow.run(async (tx) => {
      expect(await tx.operator.profileOrg('opsusp')).toBe(orgId);
      expect(await tx.operator.profileOrg('opmissing')).toBeNull();
      expect(await tx.operator.findSuspension('opsusp')).toBeNull();
      await tx.operator.setSuspension('opsusp', suspension);
      expect(await tx.operator.findSuspension('opsusp')).toEqual(suspension);
      await tx.operator.setSuspension('opsusp', { ...suspension, reason: 'legal' });
      expect(await tx.operator.findSuspension('opsusp')).toEqual({ ...suspension, reason: 'legal' });
      await tx.operator.setSuspension('opsusp', null);
      expect(await tx.operator.findSuspension('opsusp')).toBeNull();
    });
  });

  it('keeps no entry of a transaction that fails', async () => {
    const lost = block('lost.example', 300 * HOUR);
    await expect(
      engine.uow.run(async (tx) => {
        await tx.operator.blocks.insert(lost);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await engine.uow.run((tx) => tx.operator.blocks.find(lost.id))).toBeNull();
  });
}
