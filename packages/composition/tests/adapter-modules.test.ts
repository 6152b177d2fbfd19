import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ClickHouseClientSource,
  ProfileOwnerLookup,
  ReadinessProbe,
  untracedStorageCalls,
} from '@svc/adapters';
import {
  ColumnarStore,
  DeviceCounts,
  IdentityStore,
  ListArtifactStore,
  ListPipelineStore,
  Mailer,
  MessageBus,
  NodeLogBatchLedger,
  NodeLogHoldStore,
  NodeTotalsLedger,
  ProfileCommitter,
  QueryLogEraser,
  UnitOfWork,
} from '@svc/domain';
import { Container } from 'inversify';
import { afterAll, describe, expect, it } from 'vitest';
import {
  adapterModules,
  BusTransport,
  ColumnarQueryLog,
  Lifecycle,
  migrateStores,
  PostgresToken,
} from '../src/index.js';

const log = { info: () => undefined, warn: () => undefined };

function containerOf(storage: 'engines' | 'memory', dataDir: string) {
  const container = new Container({ defaultScope: 'Singleton' });
  const lifecycle = new Lifecycle();
  container.load(
    ...adapterModules({ storage: { dataDir } }, storage, { lifecycle, log, tracer: untracedStorageCalls }),
  );
  return { container, lifecycle };
}

/** What every adapter family binds, whichever it is: the use cases are bound on top of these, unconditionally. */
const EVERY_FAMILY = [
  IdentityStore,
  UnitOfWork,
  ProfileCommitter,
  MessageBus,
  BusTransport,
  Mailer,
  ListPipelineStore,
  ListArtifactStore,
  ProfileOwnerLookup,
  NodeLogHoldStore,
  NodeLogBatchLedger,
  NodeTotalsLedger,
  ColumnarQueryLog,
  DeviceCounts,
  QueryLogEraser,
];

describe(adapterModules.name, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-composition-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('memory: binds every store in memory, and no PostgreSQL, ClickHouse or readiness probe', async () => {
    const { container, lifecycle } = containerOf('memory', dataDir);
    for (const id of EVERY_FAMILY) expect(container.isBound(id), String(id)).toBe(true);
    for (const id of [PostgresToken, ColumnarStore, ClickHouseClientSource, ReadinessProbe])
      expect(container.isBound(id), String(id)).toBe(false);
    await container.getAsync(UnitOfWork);
    expect(await migrateStores(container)).toEqual({ postgres: [], columnar: [] });
    expect(await lifecycle.closeAll()).toEqual([]);
  });

  it('engines: one columnar store behind its port and its client, probed only once something opened it', async () => {
    const { container, lifecycle } = containerOf('engines', dataDir);
    try {
      for (const id of EVERY_FAMILY) expect(container.isBound(id), String(id)).toBe(true);
      const columnar = await container.getAsync<ColumnarStore>(ColumnarStore);
      expect(await container.getAsync<ClickHouseClientSource>(ClickHouseClientSource)).toBe(columnar);
      const probes = await container.getAllAsync<ReadinessProbe>(ReadinessProbe);
      expect(probes.map((probe) => probe.dependency).sort()).toEqual(['columnar', 'postgres']);
      const postgres = probes.find((probe) => probe.dependency === 'postgres');
      expect(postgres?.isOpen()).toBe(true);
      expect(await postgres?.ping()).toBe(true);
      // Resolving the columnar store or its probe must not load the embedded engine.
      expect(probes.find((probe) => probe.dependency === 'columnar')?.isOpen()).toBe(false);
    } finally {
      expect(await lifecycle.closeAll()).toEqual([]);
    }
  });
});
