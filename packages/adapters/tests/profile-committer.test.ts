import {
  type OutboxMessage,
  type ProfileCommitter,
  type ProfileRecord,
  type UnitOfWork,
  UnitOfWorkProfileCommitter,
} from '@svc/domain';
import { openPglite, openPostgresServer, type TestDatabase } from '@svc/testing/engines';
import { postgresServerSkipReason } from '@svc/testing/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MemoryOutboxRelay,
  MemoryStores,
  MemoryUnitOfWork,
  PostgresProfileCommitter,
  PostgresUnitOfWork,
  postgresTransactionRepositories,
} from '../src/index.js';
import { profileRecord } from './support/profile-records.js';
import { RecordingBus } from './support/recording-bus.js';

const T0 = new Date('2026-11-24T10:00:00Z');

/** A committer under test with the unit of work that stores its profiles and what it published. */
interface CommitterEngine {
  committer: ProfileCommitter;
  uow: UnitOfWork;
  createOrganisation(id: string): Promise<void>;
  /** Publications committed so far, in outbox order. */
  publications(): Promise<OutboxMessage[]>;
  /**
   * Holds the profile's row lock in a transaction of its own until `release` is called: only where
   * transactions run side by side (the PostgreSQL server; PGlite runs one connection at a time).
   */
  holdRowLock?(id: string): Promise<{ release(): Promise<void> }>;
  dispose(): Promise<void>;
}

async function openMemory(): Promise<CommitterEngine> {
  const stores = new MemoryStores();
  const bus = new RecordingBus();
  const relay = new MemoryOutboxRelay(bus);
  const uow = new MemoryUnitOfWork(relay, {
    repositories: (counters) => stores.transactionRepositories(counters),
    participants: stores.participants,
  });
  return {
    committer: new UnitOfWorkProfileCommitter(uow),
    uow,
    createOrganisation: async () => undefined,
    publications: async () => {
      await relay.drain();
      return bus.published.map(({ subject, payload }) => ({ subject, payload }));
    },
    dispose: async () => undefined,
  };
}

const onEngine =
  (open: () => Promise<TestDatabase>, sideBySide: boolean) => async (): Promise<CommitterEngine> => {
    const engine = await open();
    const { pool } = engine.database;
    return {
      committer: new PostgresProfileCommitter(pool),
      uow: new PostgresUnitOfWork(pool, { repositories: postgresTransactionRepositories }),
      createOrganisation: async (id) => {
        await pool.query('INSERT INTO organisations (id, name, created_at) VALUES ($1, $2, now())', [
          id,
          'test',
        ]);
      },
      publications: async () =>
        (await pool.query<OutboxMessage>('SELECT subject, payload FROM outbox ORDER BY id')).rows,
      ...(sideBySide
        ? {
            holdRowLock: async (id: string) => {
              const client = await pool.connect();
              await client.query('BEGIN');
              await client.query('SELECT 1 FROM profiles WHERE id = $1 FOR UPDATE', [id]);
              return {
                release: async () => {
                  await client.query('COMMIT');
                  client.release();
                },
              };
            },
          }
        : {}),
      dispose: engine.dispose,
    };
  };

const ENGINES = [
  { name: 'memory (on its unit of work)', open: openMemory, skip: false },
  { name: 'PGlite', open: onEngine(openPglite, false), skip: false },
  {
    name: 'PostgreSQL server',
    open: onEngine(openPostgresServer, true),
    skip: postgresServerSkipReason !== undefined,
  },
];

/**
 * The ProfileCommitter port (spec 4.2 versioning, 6.3 publication): the next version and its publication are
 * stored together, and only while the profile is still live at the version its writer read.
 */
for (const { name, open, skip } of ENGINES) {
  describe.skipIf(skip)(`ProfileCommitter: ${name}`, () => {
    let engine: CommitterEngine;
    let n = 0;
    const org = crypto.randomUUID();
    const otherOrg = crypto.randomUUID();

    const stored = async (orgId = org, overrides: Partial<ProfileRecord> = {}): Promise<ProfileRecord> => {
      n += 1;
      const record = profileRecord(`pc${String(n).padStart(4, '0')}`, orgId, T0, overrides);
      await engine.uow.run(async (tx) => {
        expect(await tx.profiles.insert(record)).toBe(true);
      });
      return record;
    };
    const find = (record: ProfileRecord) => engine.uow.run((tx) => tx.profiles.find(record.orgId, record.id));
    const nextOf = (record: ProfileRecord, name: string): ProfileRecord => ({
      ...record,
      name,
      version: record.version + 1,
      rules: { deny: ['ads.example'], allow: [], rewrites: [] },
      lists: [3, 1],
      updatedAt: new Date(T0.getTime() + 1000),
    });
    const publication = (record: ProfileRecord): OutboxMessage => ({
      subject: `profiles.${record.id}`,
      payload: { id: record.id, version: record.version, name: record.name },
    });
    const publishedFor = async (record: ProfileRecord) =>
      (await engine.publications()).filter((message) => message.subject === `profiles.${record.id}`);

    beforeAll(async () => {
      engine = await open();
      await engine.createOrganisation(org);
      await engine.createOrganisation(otherOrg);
    }, 60_000);
    afterAll(async () => engine?.dispose());

    it('reads the organisation’s live profile as stored, and nothing of another organisation or tombstoned', async () => {
      const mine = await stored();
      const tombstoned = await stored(otherOrg);
      await engine.uow.run((tx) => tx.profiles.tombstoneAll(otherOrg, T0));
      expect((await engine.committer.current(org, mine.id))?.record).toEqual(mine);
      expect(await engine.committer.current(otherOrg, mine.id)).toBeNull();
      expect(await engine.committer.current(otherOrg, tombstoned.id)).toBeNull();
      expect(await engine.committer.current(org, 'zzzzzz')).toBeNull();
    });

    it('reads the active addresses linked to the profile with it, in text order, pending links left out', async () => {
      const linked = await stored();
      const bare = await stored();
      await engine.uow.run(async (tx) => {
        for (const [index, ip] of ['9.9.9.9', null, '10.0.0.1', '8.8.4.4'].entries()) {
          const written = await tx.linkedIps.insert({
            id: crypto.randomUUID(),
            orgId: org,
            profileId: linked.id,
            ip,
            // An unproven claim (8.8.4.4) is never published, nor an empty DDNS slot.
            state: ip === null || ip === '8.8.4.4' ? 'pending' : 'active',
            ddns: ip === null,
            ddnsGeneration: 1,
            ddnsLookup: `lookup-${linked.id}-${index}`,
            createdAt: T0,
            updatedAt: T0,
          });
          expect(written).toBe('written');
        }
      });
      const snapshot = await engine.committer.current(org, linked.id);
      expect(snapshot?.record).toEqual(linked);
      expect(snapshot?.linkedIps).toEqual(['10.0.0.1', '9.9.9.9']);
      const empty = await engine.committer.current(org, bare.id);
      expect(empty).toEqual({ record: bare, linkedIps: [], devices: {} });
    });

    it('stores the next version and its publication when the profile is still at the version read', async () => {
      const current = await stored();
      const next = nextOf(current, 'renamed');
      expect(await engine.committer.commitIfUnchanged(next, publication(next))).toBe(true);
      expect(await find(current)).toEqual(next);
      expect(await publishedFor(current)).toEqual([publication(next)]);
    });

    it('writes nothing when another write moved the profile on since it was read', async () => {
      const current = await stored();
      const winner = nextOf(current, 'winner');
      expect(await engine.committer.commitIfUnchanged(winner, publication(winner))).toBe(true);
      const loser = nextOf(current, 'loser');
      expect(await engine.committer.commitIfUnchanged(loser, publication(loser))).toBe(false);
      expect(await find(current)).toEqual(winner);
      expect(await publishedFor(current)).toEqual([publication(winner)]);
    });

    it('writes nothing to a profile that is gone, tombstoned, or of another organisation', async () => {
      const deleted = await stored();
      await engine.uow.run((tx) => tx.profiles.delete(deleted.orgId, deleted.id));
      const tombstoned = await stored(otherOrg);
      await engine.uow.run((tx) => tx.profiles.tombstoneAll(otherOrg, T0));
      const foreign = await stored();
      const attempts = [
        nextOf(deleted, 'x'),
        { ...nextOf(tombstoned, 'x'), version: tombstoned.version + 2 },
        { ...nextOf(foreign, 'x'), orgId: otherOrg },
      ];
      for (const next of attempts)
        expect(await engine.committer.commitIfUnchanged(next, publication(next))).toBe(false);
      expect(await find(foreign)).toEqual(foreign);
      for (const record of [deleted, tombstoned, foreign]) expect(await publishedFor(record)).toEqual([]);
    });

    it('keeps the stored suspension whatever the next version says', async () => {
      const current = await stored(org, { suspended: false });
      const next = { ...nextOf(current, 'sneaky'), suspended: true };
      expect(await engine.committer.commitIfUnchanged(next, publication(next))).toBe(true);
      expect(await find(current)).toMatchObject({ name: 'sneaky', suspended: false });
    });

    it('lets exactly one of concurrent writers of one version win, and every writer of its own profile', async () => {
      const contended = await stored();
      const own = await Promise.all(Array.from({ length: 12 }, () => stored()));
      const rivals = Array.from({ length: 8 }, (_, index) => nextOf(contended, `rival ${index}`));
      const writes = [
        ...rivals.map((next) => engine.committer.commitIfUnchanged(next, publication(next))),
        ...own.map((record) => {
          const next = nextOf(record, 'own');
          return engine.committer.commitIfUnchanged(next, publication(next));
        }),
      ];
      const answers = await Promise.all(writes);
      expect(answers.slice(0, rivals.length).filter(Boolean)).toHaveLength(1);
      expect(answers.slice(rivals.length)).toEqual(own.map(() => true));
      const winner = rivals[answers.indexOf(true)];
      expect(await find(contended)).toEqual(winner);
      expect(await publishedFor(contended)).toEqual(winner === undefined ? [] : [publication(winner)]);
      for (const record of own)
        expect(await publishedFor(record)).toEqual([publication(nextOf(record, 'own'))]);
    });

    it.skipIf(name !== 'PostgreSQL server')(
      'refuses at once a profile whose row another transaction holds, and still commits the others',
      async () => {
        const held = await stored();
        const free = await stored();
        if (engine.holdRowLock === undefined) throw new Error('this engine cannot hold a lock aside');
        const lock = await engine.holdRowLock(held.id);
        try {
          const heldNext = nextOf(held, 'held');
          const freeNext = nextOf(free, 'free');
          const answers = await Promise.all([
            engine.committer.commitIfUnchanged(heldNext, publication(heldNext)),
            engine.committer.commitIfUnchanged(freeNext, publication(freeNext)),
          ]);
          expect(answers).toEqual([false, true]);
        } finally {
          await lock.release();
        }
        expect(await find(held)).toEqual(held);
        expect(await find(free)).toMatchObject({ name: 'free', version: 2 });
      },
    );
  });
}
