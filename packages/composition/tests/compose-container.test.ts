import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  migratePostgres,
  type PostgresDatabase,
  ProfileOwnerLookup,
  ReadinessProbe,
  untracedStorageCalls,
} from '@svc/adapters';
import {
  ApiTokenService,
  DeviceCounts,
  type InviteService,
  type ListPipelineService,
  LogQueryRelay,
  NodePresence,
  type NodeService,
  NoopQueryLogEraser,
  OfflineLogQueryRelay,
  type ProfileService,
  QueryLogEraser,
  UnavailableDeviceCounts,
} from '@svc/domain';
import type { EdgeSimulator } from '@svc/edge-simulator';
import { ContainerModule } from 'inversify';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ApiTokenServiceToken,
  BusTransport,
  ColumnarQueryLog,
  type ComposeOptions,
  composeContainer,
  EdgeSimulatorToken,
  InviteServiceToken,
  type Lifecycle,
  LifecycleToken,
  ListPipelineServiceToken,
  NodeServiceToken,
  PostgresToken,
  ProfileServiceToken,
  parseSettings,
  QueueDepthSource,
} from '../src/index.js';

const quiet = { info: () => undefined, warn: () => undefined };

function compose(
  dataDir: string,
  storage: 'engines' | 'memory',
  extra: { env?: Record<string, string>; host?: ComposeOptions['host'] } = {},
) {
  return composeContainer({
    settings: parseSettings({ SVC_ENV: 'development', SVC_DATA_DIR: dataDir, ...extra.env }),
    storage,
    log: quiet,
    tracer: untracedStorageCalls,
    ...(extra.host === undefined ? {} : { host: extra.host }),
  });
}

describe(composeContainer.name, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-compose-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('memory: the storage commands’ use cases without a host, on the standalone host’s bindings', async () => {
    const container = compose(dataDir, 'memory');
    try {
      const invites = await container.getAsync<InviteService>(InviteServiceToken);
      const { invite } = await invites.create(2, null);
      expect((await invites.list()).map((listed) => listed.id)).toEqual([invite.id]);
      await container.getAsync<ListPipelineService>(ListPipelineServiceToken);
      // No token cache, no node links: the plain token service, and no node ever connected.
      expect((await container.getAsync<ApiTokenService>(ApiTokenServiceToken)).constructor).toBe(
        ApiTokenService,
      );
      expect((await container.getAsync<NodePresence>(NodePresence)).isConnected('any')).toBe(false);
      expect(await container.getAsync<LogQueryRelay>(LogQueryRelay)).toBeInstanceOf(OfflineLogQueryRelay);
      // The memory family configures no columnar store: no cloud query log, so nothing to simulate into, null
      // device counts and nothing to erase; its bus is this process's own.
      expect(await container.getAsync<ColumnarQueryLog>(ColumnarQueryLog)).toBeNull();
      expect(await container.getAsync<EdgeSimulator | null>(EdgeSimulatorToken)).toBeNull();
      expect(await container.getAsync<DeviceCounts>(DeviceCounts)).toBeInstanceOf(UnavailableDeviceCounts);
      expect(await container.getAsync<QueryLogEraser>(QueryLogEraser)).toBeInstanceOf(NoopQueryLogEraser);
      expect(await container.getAsync<BusTransport>(BusTransport)).toBe('in_process');
      // Profiles are found by id alone in memory too (what svc simulate names).
      expect(
        await (await container.getAsync<ProfileOwnerLookup>(ProfileOwnerLookup)).organisationOf('p_none'),
      ).toBeNull();
      for (const id of [QueueDepthSource, PostgresToken])
        expect(container.isBound(id), String(id)).toBe(false);
    } finally {
      expect(await container.get<Lifecycle>(LifecycleToken).closeAll()).toEqual([]);
    }
  });

  it('a host’s bindings replace the standalone host’s', async () => {
    const everyNodeConnected: NodePresence = { isConnected: () => true };
    const container = compose(dataDir, 'memory', {
      host: [
        new ContainerModule(({ bind }) => {
          bind<NodePresence>(NodePresence).toConstantValue(everyNodeConnected);
        }),
      ],
    });
    try {
      expect(await container.getAsync<NodePresence>(NodePresence)).toBe(everyNodeConnected);
      await container.getAsync<NodeService>(NodeServiceToken);
      expect(container.getAll(NodePresence)).toHaveLength(1);
    } finally {
      await container.get<Lifecycle>(LifecycleToken).closeAll();
    }
  });

  it('engines: the simulator and the bus’s reach come from ports the families bind, not from the storage kind', async () => {
    const plain = compose(dataDir, 'engines');
    const withNats = compose(dataDir, 'engines', { env: { NATS_URL: 'nats://127.0.0.1:4222' } });
    try {
      expect(await plain.getAsync<BusTransport>(BusTransport)).toBe('in_process');
      expect(await withNats.getAsync<BusTransport>(BusTransport)).toBe('nats');
      // The simulator finds a profile by id alone through the family's lookup, as svc simulate names it.
      const database = await plain.getAsync<PostgresDatabase>(PostgresToken);
      await migratePostgres(database.pool);
      const owners = await plain.getAsync<ProfileOwnerLookup>(ProfileOwnerLookup);
      expect(await owners.organisationOf('p_none')).toBeNull();
      await plain.getAsync<ProfileService>(ProfileServiceToken);
      // Resolving the simulator (and the query log it writes into) must not open the columnar store.
      expect(await plain.getAsync<EdgeSimulator | null>(EdgeSimulatorToken)).not.toBeNull();
      const probes = await plain.getAllAsync<ReadinessProbe>(ReadinessProbe);
      expect(probes.find((probe) => probe.dependency === 'columnar')?.isOpen()).toBe(false);
      // The metrics read the queues through the family's port: nothing is pending in a new database.
      const queues = await plain.getAsync<QueueDepthSource>(QueueDepthSource);
      expect((await queues.read()).outboxPending).toBe(0);
    } finally {
      expect(await plain.get<Lifecycle>(LifecycleToken).closeAll()).toEqual([]);
      expect(await withNats.get<Lifecycle>(LifecycleToken).closeAll()).toEqual([]);
    }
  });
});
