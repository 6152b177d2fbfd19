import { type ProfileRecord, ProfileSettings } from '@svc/domain';
import { openPglite, openPostgresServer, type TestDatabase } from '@svc/testing/engines';
import { postgresServerSkipReason } from '@svc/testing/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PostgresProfileCommitter,
  PostgresProfileStore,
  PostgresUnitOfWork,
  postgresTransactionRepositories,
} from '../src/index.js';
import { profileRecord } from './support/profile-records.js';

const ORG = '0b6f1a5e-7f5c-4c1e-9f3e-3f1c2d4e5a60';
const BEDTIME: ProfileRecord['schedules'] = [
  { name: 'bedtime', windows: [{ days: ['fri', 'sat'], start: '22:30', end: '07:00' }] },
];

/** Schedules and the time zone on PostgreSQL (issue 38, migration 0022). */
function runProfileSchedulesOn(engineName: string, open: () => Promise<TestDatabase>, skip = false): void {
  describe.skipIf(skip)(`profile schedules and time zone on ${engineName} (issue 38)`, () => {
    let engine: TestDatabase;
    beforeAll(async () => {
      engine = await open();
      await engine.database.pool.query(
        'INSERT INTO organisations (id, name, created_at) VALUES ($1, $2, now())',
        [ORG, 'test'],
      );
    }, 60_000);
    afterAll(async () => engine?.dispose());

    const uow = () =>
      new PostgresUnitOfWork(engine.database.pool, { repositories: postgresTransactionRepositories });

    it('stores the schedules and the zone, and reads them back through every reader', async () => {
      const at = new Date('2026-11-28T00:00:00Z');
      const settings = ProfileSettings.parse({ time_zone: 'Europe/Berlin' });
      const record = profileRecord('sch001', ORG, at, { schedules: BEDTIME, settings });
      await uow().run((tx) => tx.profiles.insert(record));
      const read = await uow().run((tx) => tx.profiles.find(ORG, 'sch001'));
      expect(read).toMatchObject({ schedules: BEDTIME, settings: { time_zone: 'Europe/Berlin' } });
      const store = new PostgresProfileStore(engine.database.pool);
      expect((await store.find(ORG, 'sch001'))?.schedules).toEqual(BEDTIME);

      const committer = new PostgresProfileCommitter(engine.database.pool);
      const next = { ...record, version: 2, schedules: [], updatedAt: new Date('2026-11-28T01:00:00Z') };
      const committed = await committer.commitIfUnchanged(next, { subject: 'profiles.sch001', payload: {} });
      expect(committed).toBe(true);
      expect((await committer.current(ORG, 'sch001'))?.record).toMatchObject({ version: 2, schedules: [] });
      await uow().run((tx) => tx.profiles.save({ ...next, version: 3, schedules: BEDTIME }));
      expect((await store.find(ORG, 'sch001'))?.schedules).toEqual(BEDTIME);
    });

    it('reads a row stored without settings.time_zone (written before it existed) as UTC', async () => {
      const at = new Date('2026-11-28T00:00:00Z');
      await uow().run((tx) => tx.profiles.insert(profileRecord('sch002', ORG, at)));
      await engine.database.pool.query(
        "UPDATE profiles SET settings = settings - 'time_zone' WHERE id = 'sch002'",
      );
      const raw = await engine.database.pool.query<{ has: boolean }>(
        "SELECT settings ? 'time_zone' AS has FROM profiles WHERE id = 'sch002'",
      );
      expect(raw.rows[0]?.has).toBe(false);
      const read = await uow().run((tx) => tx.profiles.find(ORG, 'sch002'));
      expect(read?.settings.time_zone).toBe('UTC');
      expect(read?.schedules).toEqual([]);
      const snapshot = await new PostgresProfileCommitter(engine.database.pool).current(ORG, 'sch002');
      expect(snapshot?.record.settings.time_zone).toBe('UTC');
    });
  });
}

runProfileSchedulesOn('PGlite', openPglite);
runProfileSchedulesOn('PostgreSQL server', openPostgresServer, postgresServerSkipReason !== undefined);
