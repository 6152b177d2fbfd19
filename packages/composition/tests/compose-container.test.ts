import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  migratePostgres,
  type PostgresDatabase,
  ProfileOwnerLookup,
  untracedStorageCalls,
} from '@svc/adapters';
import {
  ApiTokenService,
  type InviteService,
  type ListPipelineService,
  NodePresence,
  type NodeService,
  type ProfileService,
} from '@svc/domain';
import { ContainerModule } from 'inversify';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ApiTokenServiceToken,
  type ComposeOptions,
  CrossServerBus,
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
    useCaseLog: quiet,
    tracer: untracedStorageCalls,
    ...(extra.host === undefined ? {} : { host: extra.host }),
  });
}

describe(composeContainer.name, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-compose-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('memory: the storage commands’ use cases without a host, each falling back on its own', async () => {
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
      // The memory family has no columnar store or profile owner lookup, so no simulator; and no shared bus.
      for (const id of [
        EdgeSimulatorToken,
        ProfileOwnerLookup,
        CrossServerBus,
        QueueDepthSource,
        PostgresToken,
      ])
        expect(container.isBound(id), String(id)).toBe(false);
    } finally {
      expect(await container.get<Lifecycle>(LifecycleToken).closeAll()).toEqual([]);
    }
  });

  it('the host’s bindings load before the use cases and replace their fallbacks', async () => {
    const everyNodeConnected: NodePresence = { isConnected: () => true };
    const container = compose(dataDir, 'memory', {
      host: () => [
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

  it('engines: the simulator and a cross-server bus come from ports the families bind, not from the storage kind', async () => {
    const plain = compose(dataDir, 'engines');
    const withNats = compose(dataDir, 'engines', { env: { NATS_URL: 'nats://127.0.0.1:4222' } });
    try {
      expect(plain.isBound(EdgeSimulatorToken)).toBe(true);
      expect(plain.isBound(CrossServerBus)).toBe(false);
      expect(withNats.isBound(CrossServerBus)).toBe(true);
      // The simulator finds a profile by id alone through the family's lookup, as svc simulate names it.
      const database = await plain.getAsync<PostgresDatabase>(PostgresToken);
      await migratePostgres(database.pool);
      const owners = await plain.getAsync<ProfileOwnerLookup>(ProfileOwnerLookup);
      expect(await owners.organisationOf('p_none')).toBeNull();
      await plain.getAsync<ProfileService>(ProfileServiceToken);
      // The metrics read the queues through the family's port: nothing is pending in a new database.
      const queues = await plain.getAsync<QueueDepthSource>(QueueDepthSource);
      expect((await queues.read()).outboxPending).toBe(0);
    } finally {
      expect(await plain.get<Lifecycle>(LifecycleToken).closeAll()).toEqual([]);
      expect(await withNats.get<Lifecycle>(LifecycleToken).closeAll()).toEqual([]);
    }
  });
});
