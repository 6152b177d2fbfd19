import type { MessageBus } from '@svc/domain';
import { openPglite, openPostgresServer, type TestDatabase } from '@svc/testing/engines';
import { postgresServerSkipReason } from '@svc/testing/postgres';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  MemoryOutboxRelay,
  MemoryStores,
  MemoryUnitOfWork,
  PostgresOutboxRelay,
  PostgresUnitOfWork,
  postgresTransactionRepositories,
} from '../src/index.js';
import { runOutboxContract } from './contracts/outbox.contract.js';
import { RecordingBus } from './support/recording-bus.js';

runOutboxContract('memory', async (bus) => {
  const relay = new MemoryOutboxRelay(bus);
  const stores = new MemoryStores();
  const uow = new MemoryUnitOfWork(relay, {
    repositories: (counters) => stores.transactionRepositories(counters),
    participants: stores.participants,
  });
  return { uow, relay, otherRelay: relay, dispose: async () => undefined };
});

const onEngine = (open: () => Promise<TestDatabase>) => async (bus: RecordingBus) => {
  const engine = await open();
  const { pool } = engine.database;
  return {
    uow: new PostgresUnitOfWork(pool, { repositories: postgresTransactionRepositories }),
    relay: new PostgresOutboxRelay(pool, bus),
    otherRelay: new PostgresOutboxRelay(pool, bus),
    dispose: engine.dispose,
  };
};

runOutboxContract('PGlite', onEngine(openPglite));
runOutboxContract('PostgreSQL server', onEngine(openPostgresServer), {
  skip: postgresServerSkipReason !== undefined,
});

describe.skipIf(postgresServerSkipReason !== undefined)(
  `${PostgresOutboxRelay.name} under load (PostgreSQL server)`,
  () => {
    let engine: TestDatabase;
    beforeAll(async () => {
      engine = await openPostgresServer();
    }, 60_000);
    afterAll(async () => engine?.dispose());

    it('publishes a lone commit at once, and what commits during a drain together after the batch delay', async () => {
      const { pool } = engine.database;
      let openGate: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => {
        openGate = resolve;
      });
      const bus = new RecordingBus();
      const gatedBus: MessageBus = {
        publish: async (subject, payload, options) => {
          if (bus.published.length === 0) await gate;
          await bus.publish(subject, payload, options);
        },
        subscribe: () => bus.subscribe(),
        close: () => bus.close(),
      };
      const relay = new PostgresOutboxRelay(pool, gatedBus, { batchDelayMs: 1000 });
      const uow = new PostgresUnitOfWork(pool, { repositories: postgresTransactionRepositories });
      const commit = (n: number) =>
        uow.run(async (tx) => tx.outbox.enqueue({ subject: 'profiles.a', payload: { n } }));

      await commit(1);
      const drained = relay.drain();
      await commit(2);
      void relay.drain();
      openGate();
      await vi.waitFor(() => expect(bus.published).toHaveLength(1), { timeout: 5000 });
      // The relay now waits before its next pass: commits meanwhile join the batch of the second one.
      await commit(3);
      void relay.drain();
      await commit(4);
      void relay.drain();

      expect(await drained).toBe(4);
      expect(bus.published.map((delivery) => delivery.payload)).toEqual([
        { n: 1 },
        { n: 2 },
        { n: 3 },
        { n: 4 },
      ]);
      const sent = await pool.query<{ batch: string }>(
        'SELECT sent_at::text AS batch FROM outbox ORDER BY id',
      );
      const batches = sent.rows.map((row) => row.batch);
      expect(batches).toHaveLength(4);
      expect(new Set(batches).size).toBe(2);
      expect(batches[1]).not.toBe(batches[0]);
      expect(batches.slice(1)).toEqual([batches[1], batches[1], batches[1]]);
    }, 30_000);
  },
);
