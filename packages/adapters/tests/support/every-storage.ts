import type { NodeLogBatchLedger, NodeLogHoldStore, NodeTotalsLedger, UnitOfWork } from '@svc/domain';
import { openPglite, openPostgresServer, type TestDatabase } from '@svc/testing/engines';
import { postgresServerSkipReason } from '@svc/testing/postgres';
import { describe } from 'vitest';
import {
  InProcessMessageBus,
  MemoryNodeLogBatchLedger,
  MemoryNodeLogHoldStore,
  MemoryNodeTotalsLedger,
  MemoryOutboxRelay,
  MemoryStores,
  MemoryUnitOfWork,
  PostgresNodeLogBatchLedger,
  PostgresNodeLogHoldStore,
  PostgresNodeTotalsLedger,
  PostgresUnitOfWork,
  postgresTransactionRepositories,
} from '../../src/index.js';

/** A fresh store on one storage, seen through the unit of work the services use. */
export interface StoreUnderTest {
  uow: UnitOfWork;
  /** The offline hold of node log rows, over the same nodes as `uow`. */
  nodeLogHold: NodeLogHoldStore;
  /** The ledger of stored node log batches. */
  nodeLogLedger: NodeLogBatchLedger;
  /** The ledger of the hourly totals nodes reported. */
  nodeTotalsLedger: NodeTotalsLedger;
  /** Creates an organisation, which the engines' foreign keys want before its profiles (memory needs none). */
  createOrganisation(id: string): Promise<void>;
  dispose(): Promise<void>;
}

/** One storage a repository contract runs on. */
export interface ContractStorage {
  /** As the contract's title names it: `memory`, `PGlite` or `PostgreSQL server`. */
  name: string;
  /** True when transactions run at once, each on a connection of its own (memory and PGlite run one at a time). */
  concurrentTransactions: boolean;
  /** Opens an empty store (a migrated scratch database on the engines); each contract opens its own. */
  open(): Promise<StoreUnderTest>;
}

async function openMemory(): Promise<StoreUnderTest> {
  const stores = new MemoryStores();
  const uow = new MemoryUnitOfWork(new MemoryOutboxRelay(new InProcessMessageBus()), {
    repositories: (counters) => stores.transactionRepositories(counters),
    participants: stores.participants,
  });
  return {
    uow,
    nodeLogHold: new MemoryNodeLogHoldStore(stores.nodes.links()),
    nodeLogLedger: new MemoryNodeLogBatchLedger(),
    nodeTotalsLedger: new MemoryNodeTotalsLedger(),
    createOrganisation: async () => undefined,
    dispose: async () => undefined,
  };
}

const onEngine = (open: () => Promise<TestDatabase>) => async (): Promise<StoreUnderTest> => {
  const engine = await open();
  const { pool } = engine.database;
  return {
    uow: new PostgresUnitOfWork(pool, { repositories: postgresTransactionRepositories }),
    nodeLogHold: new PostgresNodeLogHoldStore(pool),
    nodeLogLedger: new PostgresNodeLogBatchLedger(pool),
    nodeTotalsLedger: new PostgresNodeTotalsLedger(pool),
    createOrganisation: async (id) => {
      await pool.query('INSERT INTO organisations (id, name, created_at) VALUES ($1, $2, now())', [
        id,
        'test',
      ]);
    },
    dispose: engine.dispose,
  };
};

const STORAGES: readonly { storage: ContractStorage; skip: boolean }[] = [
  { storage: { name: 'memory', concurrentTransactions: false, open: openMemory }, skip: false },
  { storage: { name: 'PGlite', concurrentTransactions: false, open: onEngine(openPglite) }, skip: false },
  {
    storage: { name: 'PostgreSQL server', concurrentTransactions: true, open: onEngine(openPostgresServer) },
    // Why is printed once per file when postgres-server.js is loaded.
    skip: postgresServerSkipReason !== undefined,
  },
];

/**
 * Declares the contract `name` once per storage, as `${name}: ${storage.name}`: on the memory stores, on
 * PGlite, and on the PostgreSQL server, skipped when the server does not answer. `contract` declares the
 * tests (and the hooks opening the store) inside each.
 */
export function describeOnEveryStorage(name: string, contract: (storage: ContractStorage) => void): void {
  for (const { storage, skip } of STORAGES) {
    describe.skipIf(skip)(`${name}: ${storage.name}`, () => contract(storage));
  }
}
