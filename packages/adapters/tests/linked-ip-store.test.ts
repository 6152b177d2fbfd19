import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresLinkedIpStore, PostgresUnitOfWork, postgresTransactionRepositories } from '../src/index.js';
import { openPglite, openPostgresServer, type TestDatabase } from './support/engines.js';
import { postgresServerSkipReason } from './support/postgres-server.js';
import { profileRecord } from './support/profile-records.js';

const T0 = new Date('2026-11-24T10:00:00Z');

const ENGINES = [
  { name: 'PGlite', open: openPglite, skip: false },
  { name: 'PostgreSQL server', open: openPostgresServer, skip: postgresServerSkipReason !== undefined },
];

/**
 * The linked addresses every profile write reads for its edge document (spec 4.4, 6.3), outside a transaction:
 * concurrent reads coalesce, and each still answers its own profile's addresses as a lone read would.
 */
for (const { name, open, skip } of ENGINES) {
  describe.skipIf(skip)(`PostgresLinkedIpStore addresses: ${name}`, () => {
    let engine: TestDatabase;
    const org = crypto.randomUUID();
    const linked: Record<string, string[]> = {
      lsa001: ['198.51.100.9', '192.0.2.10', '192.0.2.9'],
      lsa002: ['203.0.113.1'],
      lsa003: [],
    };

    beforeAll(async () => {
      engine = await open();
      const { pool } = engine.database;
      await pool.query('INSERT INTO organisations (id, name, created_at) VALUES ($1, $2, now())', [
        org,
        'test',
      ]);
      const uow = new PostgresUnitOfWork(pool, { repositories: postgresTransactionRepositories });
      await uow.run(async (tx) => {
        for (const [profileId, addresses] of Object.entries(linked)) {
          await tx.profiles.insert(profileRecord(profileId, org, T0));
          for (const ip of [...addresses, null]) {
            const id = crypto.randomUUID();
            const link = { id, orgId: org, profileId, ip, ddns: ip === null, ddnsGeneration: 1 };
            await tx.linkedIps.insert({ ...link, ddnsLookup: `lookup-${id}`, createdAt: T0, updatedAt: T0 });
          }
        }
      });
    }, 60_000);
    afterAll(async () => engine?.dispose());

    it('answers each of many concurrent reads with its profile’s addresses in text order, empty slots left out', async () => {
      const store = new PostgresLinkedIpStore(engine.database.pool);
      const asked = Array.from(
        { length: 30 },
        (_, index) => ['lsa001', 'lsa002', 'lsa003', 'zzzzzz'][index % 4] ?? '',
      );
      const answers = await Promise.all(asked.map((profileId) => store.addresses(profileId)));
      expect(answers).toEqual(
        asked.map((profileId) => [...(linked[profileId] ?? [])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))),
      );
      // The first read goes alone; the next two share a batch, and still get arrays of their own.
      const [, second, third] = await Promise.all([1, 2, 3].map(() => store.addresses('lsa001')));
      expect(second).toEqual(['192.0.2.10', '192.0.2.9', '198.51.100.9']);
      expect(third).toEqual(second);
      expect(third).not.toBe(second);
    });
  });
}
