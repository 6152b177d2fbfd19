import { openPglite, openPostgresServer, type TestDatabase } from '@svc/testing/engines';
import { postgresServerSkipReason } from '@svc/testing/postgres';
import {
  InProcessMessageBus,
  MemoryOutboxRelay,
  MemoryStores,
  MemoryUnitOfWork,
  PostgresAuditLogStore,
  PostgresUnitOfWork,
  postgresTransactionRepositories,
} from '../src/index.js';
import { type AuditLogUnderTest, runAuditLogContract } from './contracts/audit-log.contract.js';

runAuditLogContract('memory', async () => {
  const stores = new MemoryStores();
  const uow = new MemoryUnitOfWork(new MemoryOutboxRelay(new InProcessMessageBus()), {
    repositories: (counters) => stores.transactionRepositories(counters),
    participants: stores.participants,
  });
  return { uow, store: stores.auditLog, tamper: async () => false, dispose: async () => undefined };
});

/** True when the statement changed a row; false when the append-only trigger refused it. */
async function allowed(run: () => Promise<unknown>): Promise<boolean> {
  try {
    await run();
    return true;
  } catch (error) {
    if (error instanceof Error && /append-only/.test(error.message)) return false;
    throw error;
  }
}

const onEngine = (open: () => Promise<TestDatabase>) => async (): Promise<AuditLogUnderTest> => {
  const engine = await open();
  const { pool } = engine.database;
  return {
    uow: new PostgresUnitOfWork(pool, { repositories: postgresTransactionRepositories }),
    store: new PostgresAuditLogStore(pool),
    tamper: async (orgId) => {
      const updated = await allowed(() =>
        pool.query("UPDATE audit_log SET action = 'device.forget' WHERE org_id = $1", [orgId]),
      );
      const deleted = await allowed(() => pool.query('DELETE FROM audit_log WHERE org_id = $1', [orgId]));
      return updated || deleted;
    },
    dispose: engine.dispose,
  };
};

runAuditLogContract('PGlite', onEngine(openPglite));
runAuditLogContract('PostgreSQL server', onEngine(openPostgresServer), {
  skip: postgresServerSkipReason !== undefined,
});
