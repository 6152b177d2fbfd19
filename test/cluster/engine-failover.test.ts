import {
  createMessageBus,
  createPostgresDatabase,
  isDependencyUnavailable,
  type PostgresDatabase,
} from '@svc/adapters';
import type { MessageBus } from '@svc/domain';
import { connect } from 'nats';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/private-engines.js';
import {
  clusterUnavailable,
  type NatsCluster,
  type PostgresPair,
  startNatsCluster,
  startPostgresPair,
} from './cluster-engines.js';

/**
 * Issue 32, the settings that take several servers, on real engines: a pool on libpq's multi-host URL with
 * `target_session_attrs=read-write` follows a promoted standby without being reopened, and the bus on a
 * NATS_URL list keeps publishing while any one node of the cluster is killed.
 */
const skipReason = clusterUnavailable();
if (skipReason !== undefined) console.warn(`engine failover tests skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)('engines named by several URLs', () => {
  let pair: PostgresPair | undefined;
  let nats: NatsCluster | undefined;
  let database: PostgresDatabase | undefined;
  let bus: MessageBus | undefined;
  afterAll(async () => {
    await database?.close().catch(() => undefined);
    await bus?.close().catch(() => undefined);
    await pair?.destroy();
    await nats?.destroy();
  }, 60_000);

  it('connects to the first host that answers, skipping one that refuses', async () => {
    const closed = await freePort();
    pair = await startPostgresPair();
    const port = new URL(pair.primaryUrl).port;
    const any = await createPostgresDatabase({
      url: `postgres://postgres@127.0.0.1:${closed},127.0.0.1:${port}/postgres`,
    });
    try {
      const { rows } = await any.pool.query<{ port: number }>("SELECT current_setting('port')::int AS port");
      expect(rows[0]?.port).toBe(Number(port));
    } finally {
      await any.close();
    }
  }, 60_000);

  it('with target_session_attrs=read-write writes to the primary, then to the standby once promoted, without a restart', async () => {
    const running = pair;
    if (running === undefined) throw new Error('no PostgreSQL pair');
    // The standby listed first: read-write skips it while it is in recovery.
    const [primary, standby] = [new URL(running.primaryUrl).port, new URL(running.standbyUrl).port];
    database = await createPostgresDatabase({
      url: `postgres://postgres@127.0.0.1:${standby},127.0.0.1:${primary}/postgres?target_session_attrs=read-write`,
    });
    const { pool } = database;
    await pool.query('CREATE TABLE failover_probe (n int PRIMARY KEY)');
    await pool.query('INSERT INTO failover_probe VALUES (1)');
    await running.crashPrimary();
    // With the primary gone and the standby still in recovery, there is nowhere to write: failures the
    // problem mapper answers 503 with Retry-After, never 500 (issue 35).
    const cut = await pool.query('INSERT INTO failover_probe VALUES (2)').catch((error: unknown) => error);
    expect(isDependencyUnavailable(cut), String(cut)).toBe(true);
    const nowhere = await pool
      .query('INSERT INTO failover_probe VALUES (2)')
      .catch((error: unknown) => error);
    expect(String(nowhere)).toMatch(/no writable PostgreSQL host/);
    expect(isDependencyUnavailable(nowhere)).toBe(true);
    // A standby reached directly refuses a write with 25006, which is no writable host either.
    const standbyOnly = await createPostgresDatabase({ url: running.standbyUrl }, { max: 1 });
    try {
      const readOnly = await standbyOnly.pool
        .query('INSERT INTO failover_probe VALUES (3)')
        .catch((error: unknown) => error);
      expect((readOnly as { code?: string }).code).toBe('25006');
      expect(isDependencyUnavailable(readOnly)).toBe(true);
    } finally {
      await standbyOnly.close();
    }
    await running.promoteStandby();
    await pool.query('INSERT INTO failover_probe VALUES (2)');
    const { rows } = await pool.query<{ n: number }>('SELECT n FROM failover_probe ORDER BY n');
    // The row committed on the primary before its crash is on the standby: replication is synchronous.
    expect(rows.map((row) => row.n)).toEqual([1, 2]);
  }, 60_000);

  it('publishes on a NATS_URL list while any one node is killed', async () => {
    nats = await startNatsCluster();
    const cluster = nats;
    bus = await createMessageBus({ natsUrl: cluster.urls.join(','), natsTlsCa: cluster.caFile });
    const publisher = bus;
    for (const killed of [0, 1, 2]) {
      // A core NATS subscriber misses what is published while it reconnects: it listens on a node that stays.
      const listener = await connect(cluster.clientOptions([(killed + 1) % 3]));
      const received: number[] = [];
      const subscription = listener.subscribe(`profiles.failover${killed}`);
      void (async () => {
        for await (const message of subscription) received.push(Number(message.string()));
      })();
      await listener.flush();
      await cluster.kill(killed);
      let failed = 0;
      for (let index = 0; index < 20; index += 1) {
        // As the outbox relay does: a publish whose flush failed (the connection dropped) is sent again.
        for (;;) {
          try {
            await publisher.publish(`profiles.failover${killed}`, index);
            break;
          } catch {
            failed += 1;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        }
      }
      const deadline = Date.now() + 5_000;
      while (new Set(received).size < 20 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      await listener.close();
      const distinct = received.filter((value, index) => received.indexOf(value) === index);
      expect(distinct, `node ${killed + 1} killed`).toEqual(Array.from({ length: 20 }, (_, index) => index));
      console.info(
        `nats-${killed + 1} killed: 20 published, ${failed} publish(es) failed and sent again, ${received.length - 20} delivered twice`,
      );
      await cluster.start(killed);
    }
  }, 60_000);
});
